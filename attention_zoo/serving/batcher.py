"""Concurrent requests to one model gathered into one predictor call.

A request waits at most `max_wait` seconds for others to join it, and a
call holds at most `max_batch` inputs. While the predictor runs, new
requests queue and form the next call, so that under load the calls fill
up by themselves. The predictor runs in one worker thread per model: the
event loop keeps accepting requests, and the model sees one call at a time.

A request of more than `max_batch` inputs is answered in chunks of
`max_batch`, each queued when the one before it is answered: a request
that arrives meanwhile goes into the next call instead of waiting for the
whole of the large one (a large call of beam searches holds a model for
many seconds: docs/benchmarks.md).

The predictor pads each call's batch to the next power of two itself
(`RunPredictor.run_batches`), so that a server under load compiles a few
batch shapes, not every size from 1 to `max_batch`.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field


@dataclass
class _Request:
    inputs: list
    options: dict
    future: asyncio.Future
    key: str = field(init=False)

    def __post_init__(self):
        self.key = json.dumps(self.options, sort_keys=True)


class MicroBatcher:
    """Gathers `submit`ted requests into calls of `predict(inputs, **options)`.

    Args:
        predict: a function of a list of inputs (and keyword options) to a
            list of answers, one per input, in order.
        max_batch: the most inputs one call gathers, at least 1.
        max_wait: seconds the first request of a call waits for others,
            at least 0 (0 with `max_batch` 1: one call per request).
    """

    def __init__(self, predict, max_batch: int = 64, max_wait: float = 0.005):
        if type(max_batch) is not int or max_batch < 1:
            raise ValueError(
                f"`max_batch` must be an integer of at least 1. Received: {max_batch!r}"
            )
        if not isinstance(max_wait, (int, float)) or not 0 <= max_wait <= 10:
            raise ValueError(
                f"`max_wait` must be 0 to 10 seconds. Received: {max_wait!r}"
            )
        self.predict = predict
        self.max_batch = max_batch
        self.max_wait = float(max_wait)
        self.calls = 0  # predictor calls made, for tests and the benchmark
        self._queue: asyncio.Queue | None = None
        self._task: asyncio.Task | None = None
        # A request that did not fit into the call being gathered: the
        # first of the next one.
        self._held: _Request | None = None
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="predictor")

    def start(self) -> None:
        """Starts gathering, on the running event loop."""
        self._queue = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._gather())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._worker.shutdown(wait=True)

    async def submit(self, inputs: list, **options) -> list:
        """The answers to `inputs`, from calls shared with other requests
        (one call per `max_batch` inputs, in turn with the others' calls)."""
        if self._queue is None:
            raise RuntimeError("the batcher has not been started")
        inputs, answers = list(inputs), []
        for start in range(0, max(len(inputs), 1), self.max_batch):
            future = asyncio.get_running_loop().create_future()
            chunk = inputs[start : start + self.max_batch]
            await self._queue.put(_Request(chunk, options, future))
            answers += await future
        return answers

    async def _gather(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            held, self._held = self._held, None
            requests = [held or await self._queue.get()]
            size = len(requests[0].inputs)
            deadline = loop.time() + self.max_wait
            while size < self.max_batch:
                if not self._queue.empty():  # waiting already: no wait
                    request = self._queue.get_nowait()
                else:
                    left = deadline - loop.time()
                    if left <= 0:
                        break
                    try:
                        request = await asyncio.wait_for(self._queue.get(), left)
                    except asyncio.TimeoutError:
                        break
                if size + len(request.inputs) > self.max_batch:
                    self._held = request
                    break
                requests.append(request)
                size += len(request.inputs)
            groups: dict[str, list[_Request]] = {}
            for request in requests:
                if not request.future.done():  # a client that left is skipped
                    groups.setdefault(request.key, []).append(request)
            for group in groups.values():
                await self._call(loop, group)

    async def _call(self, loop, group: list[_Request]) -> None:
        inputs = [x for request in group for x in request.inputs]
        self.calls += 1
        try:
            answers = await loop.run_in_executor(
                self._worker, lambda: self.predict(inputs, **group[0].options)
            )
        except Exception as error:  # the server answers 500 and keeps serving
            for request in group:
                if not request.future.done():
                    request.future.set_exception(error)
            return
        start = 0
        for request in group:
            end = start + len(request.inputs)
            if not request.future.done():
                request.future.set_result(answers[start:end])
            start = end
