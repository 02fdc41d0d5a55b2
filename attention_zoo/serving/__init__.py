"""`attention-zoo serve`: the loaded models behind a JSON API, requests
micro-batched into each predictor, and an attention explorer page.

Needs the `serve` extra (`pip install ".[serve]"` in a clone: FastAPI and
uvicorn). `create_app` builds the ASGI application; `serve` runs it.
"""

from attention_zoo import _lazy

# Loaded on first use (PEP 562): `attention-zoo serve --help` reads the
# defaults (`serving.defaults`) without FastAPI, uvicorn or Keras.
_ORIGINS = {
    "create_app": "attention_zoo.serving.server",
    "serve": "attention_zoo.serving.process",
}

__all__ = ["create_app", "serve"]


__getattr__, __dir__ = _lazy.attributes(__name__, _ORIGINS, globals())
