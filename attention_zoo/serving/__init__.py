"""`attention-zoo serve`: the loaded models behind a JSON API, requests
micro-batched into each predictor, and an attention explorer page.

Needs the `serve` extra (`pip install ".[serve]"` in a clone: FastAPI and
uvicorn). `create_app` builds the ASGI application; `serve` runs it.
"""

from attention_zoo.serving.process import serve
from attention_zoo.serving.server import create_app

__all__ = ["create_app", "serve"]
