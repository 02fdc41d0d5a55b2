"""A request larger than `max_batch` is answered in calls of `max_batch`,
and a request that arrives meanwhile goes between them (reliability
round 4, item 1)."""

import asyncio
import threading

from attention_zoo.serving.batcher import MicroBatcher


def test_a_small_request_goes_between_the_calls_of_a_large_one():
    calls = []
    first_call, small_queued = threading.Event(), threading.Event()

    def predict(inputs):
        calls.append(list(inputs))
        first_call.set()
        # The first call is held until the small request is queued: on a
        # loaded machine the large request's four calls could otherwise
        # all be answered before the test's loop submits the small one.
        small_queued.wait(timeout=30)
        return [x * 10 for x in inputs]

    async def main():
        batcher = MicroBatcher(predict, max_batch=2, max_wait=0.0)
        batcher.start()
        large = asyncio.ensure_future(batcher.submit(list(range(8))))
        while not first_call.is_set():
            await asyncio.sleep(0.001)
        small = asyncio.ensure_future(batcher.submit([100]))
        while batcher._queue.qsize() == 0:
            await asyncio.sleep(0.001)
        small_queued.set()
        answers, small = await large, await small
        await batcher.stop()
        return answers, small

    answers, small = asyncio.run(main())
    assert answers == [x * 10 for x in range(8)] and small == [1000]
    assert max(len(c) for c in calls) == 2
    assert calls.index([100]) < len(calls) - 1, calls
