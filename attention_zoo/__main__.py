"""`python -m attention_zoo ...` runs the `attention-zoo` command."""

from attention_zoo.cli import command

if __name__ == "__main__":
    command()
