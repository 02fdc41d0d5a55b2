"""The ASGI application of `attention-zoo serve` (FastAPI on uvicorn).

Routes: `POST /v1/{app}/predict`, `GET /v1/models`, `GET /healthz` (the
process answers), `GET /readyz` (every model loaded and warmed up),
`GET /openapi.json`, and the attention explorer at `/`. Every error is a
JSON body `{"error": ..., "field": ...}` with a 4xx status for a bad
request and 500 for a failure inside a model, after which the server
keeps serving.
"""

# No `from __future__ import annotations`: FastAPI reads the route
# functions' annotations, and `PredictRequest` is local to `create_app`.

import asyncio
import base64
import binascii
import contextlib
import threading
import time
from importlib import resources

from attention_zoo.serving.answers import answer
from attention_zoo.serving.fast_path import PredictPath, json_bytes
from attention_zoo.serving.guards import LOOPBACK_HOSTS, RequestGuard
from attention_zoo.serving.limits import (
    MAX_BODY_BYTES,
    MAX_IMAGE_BYTES,
    MAX_INPUTS,
    MAX_REFERENCE_CHARS,
    MAX_TEXT_CHARS,
    BodyLimit,
)
from attention_zoo.serving.models import ServedModel, load, resolve, warm_rest

EXTRA_HINT = "pip install '.[serve]' in a clone of the repository"


def _fastapi():
    try:
        import fastapi
    except ImportError as error:
        raise ImportError(
            f"attention-zoo serve needs the serve extra: {EXTRA_HINT} ({error})"
        ) from None
    return fastapi


def create_app(
    presets=(),
    runs=(),
    max_batch: int = 64,
    max_wait_ms: float = 5.0,
    models: list[ServedModel] | None = None,
    allowed_hosts=LOOPBACK_HOSTS,
    on_load_failure=None,
    progress=None,
    warm_in_background: bool = True,
    cache: str | None = None,
):
    """The ASGI application serving `presets` and `runs` (or `models`).

    The models load in a background thread once the application starts
    (`/readyz` answers 503 until they have); `max_batch` and `max_wait_ms`
    bound each model's micro-batching (`batcher.MicroBatcher`). It answers
    requests whose `Host` is one of `allowed_hosts` (`guards.RequestGuard`).
    Should a model fail to load, `/readyz` and every predict say which and
    why (503), and `on_load_failure(message)` is called in the event loop.

    Ready means every model answers every option a request may ask for
    without compiling (`models.load`); with `warm_in_background`, the other
    shapes of each search then compile in a background thread and serve
    once compiled (`models.warm_rest`; `/v1/models` says `warming`).
    `progress(line)` is told each step with its seconds (the command prints
    them on standard error), and the ready line names the compilation
    `cache` folder where one is given.
    """
    fastapi = _fastapi()
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from pydantic import (
        BaseModel,
        ConfigDict,
        Field,
        StrictBool,
        StrictInt,
        StrictStr,
        ValidationError,
    )
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from attention_zoo.applications.common.config import MAX_BEAM_WIDTH

    served = models if models is not None else resolve(presets, runs)
    by_app = {m.app.name: m for m in served}
    state = {"loaded": False, "ready": False, "error": None, "warming": False}
    report = progress or (lambda line: None)
    stop_warming = threading.Event()
    started = time.perf_counter()

    def load_all():
        for model in served:
            try:
                load(model, max_batch, max_wait_ms / 1000, progress)
            except Exception as error:  # /readyz and predict name it
                state["error"] = f"{model.source}: {type(error).__name__}: {error}"
                return
        state["loaded"] = True

    def warm_all():
        # The other shapes, while the server answers through the compiled
        # ones (`models.warm_rest`); a failure here only costs speed.
        try:
            for model in served:
                warm_rest(model, max_batch, progress, stop_warming)
        except Exception as error:
            report(f"warming stopped: {type(error).__name__}: {error}")
        finally:
            state["warming"] = False

    @contextlib.asynccontextmanager
    async def lifespan(app):
        thread = threading.Thread(target=load_all, daemon=True)
        thread.start()

        async def start_batchers():
            while thread.is_alive():
                await asyncio.sleep(0.05)
            if state["loaded"]:
                for model in served:
                    model.batcher.start()
                state["ready"] = True
                kept = f" (compilation cache: {cache})" if cache else ""
                report(
                    f"ready in {time.perf_counter() - started:.1f} s{kept}; "
                    "compiling the other shapes in the background"
                )
                if warm_in_background:
                    state["warming"] = True
                    threading.Thread(target=warm_all, daemon=True).start()
            elif on_load_failure is not None:
                on_load_failure(state["error"])

        starting = asyncio.get_running_loop().create_task(start_batchers())
        yield
        stop_warming.set()
        starting.cancel()
        for model in served:
            if model.batcher is not None:
                await model.batcher.stop()

    app = fastapi.FastAPI(
        title="attention-zoo",
        summary="Attention models: outputs, scores, validity and attention.",
        lifespan=lifespan,
        docs_url=None,  # the Swagger page loads its scripts from a CDN
        redoc_url=None,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    def error(status: int, message: str, field: str | None = None):
        return JSONResponse({"error": message, "field": field}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, exc):
        return error(*_invalid_body(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc):
        field = "body" if exc.status_code == 413 else None
        return error(exc.status_code, str(exc.detail), field)

    @app.exception_handler(Exception)
    async def crash(request, exc):
        return error(500, f"internal error: {type(exc).__name__}: {exc}")

    class PredictRequest(BaseModel):
        """Inputs of one application and the search options."""

        model_config = ConfigDict(extra="forbid")
        inputs: list[StrictStr] = Field(
            min_length=1,
            max_length=MAX_INPUTS,
            description="texts, or base64-encoded images for captioning",
        )
        beam_width: StrictInt | None = Field(
            None, ge=1, le=MAX_BEAM_WIDTH, description="beams (1: greedy)"
        )
        attention: StrictBool = Field(
            False, description="return each answer's attention and tokens"
        )
        n_best: StrictBool = Field(
            False,
            description="return every hypothesis of the search with its score "
            "(the applications whose /v1/models entry says n_best)",
        )
        reference: StrictStr | None = Field(
            None,
            max_length=MAX_REFERENCE_CHARS,
            description="the date-time relative expressions are resolved "
            "against, ISO 8601 with an offset or not (naive: UTC), e.g. "
            "2026-01-15T09:00:00; default now, in UTC (the applications whose "
            "/v1/models entry says reference)",
        )
        prefer: StrictStr | None = Field(
            None,
            max_length=MAX_REFERENCE_CHARS,
            description="what a text leaves open (a year, a weekday's week, a "
            "time's day) means: future (default: the next occurrence on or "
            "after the reference), past or current (docs/dates.md)",
        )

    @app.get("/healthz")
    async def healthz():
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz():
        if state["ready"]:
            return {"status": "ready", "models": sorted(by_app)}
        if state["error"]:
            return error(503, f"a model failed to load: {state['error']}")
        return error(503, "loading and warming up the models")

    @app.get("/v1/models")
    async def list_models():
        return {
            "ready": state["ready"],
            "warming": state["warming"],
            "models": [m.describe() for m in served],
        }

    def failure(status: int, message: str, field: str | None = None):
        return status, {"error": message, "field": field}

    async def answer_request(app_name: str, body: bytes) -> tuple[int, dict]:
        """The status and JSON body answering `body` posted to `app_name`."""
        try:
            request = PredictRequest.model_validate_json(body)
        except ValidationError as exc:
            return failure(*_invalid_body(exc.errors()))
        model = by_app.get(app_name)
        if model is None:
            return failure(
                404,
                f"no model serves {app_name[:100]!r}; loaded: {', '.join(sorted(by_app))}",
                "app",
            )
        if not state["ready"]:
            if state["error"]:
                return failure(503, f"a model failed to load: {state['error']}")
            return failure(503, "the models are still loading; try again shortly")
        options = {}
        if request.beam_width is not None:
            if model.beam_width is None:
                return failure(
                    422,
                    f"{app_name} has no beam search: leave beam_width out",
                    "beam_width",
                )
            if request.beam_width not in model.beam_widths:
                allowed = " or ".join(map(str, model.beam_widths))
                return failure(
                    422,
                    f"beam_width must be {allowed} for {app_name} (the searches "
                    f"compiled at start). Received: beam_width={request.beam_width}",
                    "beam_width",
                )
            if request.beam_width != model.beam_width:  # the default's calls
                options["beam_width"] = request.beam_width
        if request.n_best:
            if not model.n_best:
                return failure(
                    422, f"{app_name} gives no n-best list: leave n_best out", "n_best"
                )
            options["n_best"] = True
        timing = {"reference": request.reference, "prefer": request.prefer}
        for name, value in timing.items():
            if value is None:
                continue
            if not model.app.reference:
                return failure(
                    422,
                    f"{app_name} takes no reference time: leave {name} out",
                    name,
                )
            try:  # its options read, no input: a bad value is the request's fault
                model.predictor([], **{name: value})
            except ValueError as exc:
                return failure(422, str(exc), name)
            options[name] = value
        if model.images:  # seconds for a large image: not on the event loop
            inputs, problem = await model.off_loop(_read_inputs, model, request.inputs)
        else:
            inputs, problem = _read_inputs(model, request.inputs)
        if problem:
            return failure(422, problem[1], problem[0])
        try:
            items = await model.batcher.submit(inputs, **options)
        except Exception as exc:  # inside the model: 500, the server goes on
            return failure(
                500, f"the {app_name} model failed: {type(exc).__name__}: {exc}"
            )
        grid = getattr(model.predictor, "grid_shape", None) if model.images else None
        return 200, {
            "app": app_name,
            "answers": [answer(i, request.attention, grid) for i in items],
        }

    # `PredictPath` answers these requests before FastAPI routes them (its
    # per-request machinery cost more a request under load than the date
    # normalizer's model a date: docs/design.md); the route declares the
    # API in the OpenAPI description and answers alike should the
    # application run without that middleware.
    app.add_middleware(PredictPath, answer=answer_request, limit=MAX_BODY_BYTES)
    # Added last, so outermost: it sees every request, `PredictPath`'s too.
    app.add_middleware(RequestGuard, allowed_hosts=tuple(allowed_hosts))

    @app.post("/v1/{app_name}/predict")
    async def predict(app_name: str, request: PredictRequest):
        status, body = await answer_request(
            app_name, request.model_dump_json().encode()
        )
        return Response(json_bytes(body), status, media_type="application/json")

    static = resources.files("attention_zoo.serving") / "static"

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def explorer():
        return (static / "explorer.html").read_text(encoding="utf-8")

    # Browsers ask for /favicon.ico whatever the page links; a PNG there is
    # read by every one of them (the page links it too).
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        return Response(
            (static / "favicon.png").read_bytes(),
            media_type="image/png",
            headers={"cache-control": "max-age=86400"},
        )

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.state.models = served
    app.state.status = state
    return app


def _invalid_body(errors) -> tuple[int, str, str]:
    """`(status, message, field)` of pydantic's first error on a body:
    400 for one that is no JSON, 422 naming the field otherwise."""
    first = errors[0]
    if first.get("type") == "json_invalid":
        return 400, f"the body is not valid JSON: {first.get('msg')}", "body"
    field = _field_name(first.get("loc", ()))
    return 422, f"{field}: {first.get('msg')}", field


def _field_name(location) -> str:
    """`inputs[3]` from pydantic's `("body", "inputs", 3)`."""
    name = ""
    for part in location:
        if part == "body":
            continue
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else part)
    return name or "body"


def _read_inputs(model: ServedModel, inputs: list[str]):
    """The predictor's inputs, or `(field, message)` for the first bad one."""
    if not model.images:
        for i, text in enumerate(inputs):
            if len(text) > MAX_TEXT_CHARS:
                return None, (
                    f"inputs[{i}]",
                    f"inputs[{i}] has {len(text):,} characters; at most "
                    f"{MAX_TEXT_CHARS:,}",
                )
        return inputs, None
    images = []
    for i, text in enumerate(inputs):
        try:
            image = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return None, (f"inputs[{i}]", f"inputs[{i}] is not base64")
        if len(image) > MAX_IMAGE_BYTES:
            return None, (
                f"inputs[{i}]",
                f"inputs[{i}] holds {len(image):,} bytes; at most {MAX_IMAGE_BYTES:,}",
            )
        try:
            model.predictor.check(image)
        except Exception as exc:  # InputError: an image that does not decode
            return None, (f"inputs[{i}]", f"inputs[{i}]: {exc}")
        images.append(image)
    return images, None
