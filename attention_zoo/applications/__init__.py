"""Applications built on attention_zoo: dates, translation, captioning."""
