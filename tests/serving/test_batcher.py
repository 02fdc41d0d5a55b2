"""Micro-batching: concurrent requests share predictor calls, each gets
its own answers in order, and a failing call fails only its requests."""

import asyncio

import pytest

from attention_zoo.serving.batcher import MicroBatcher


def run(coroutine):
    return asyncio.run(coroutine)


def test_concurrent_requests_share_calls_and_keep_their_answers():
    calls = []

    def predict(inputs, **options):
        calls.append(len(inputs))
        return [f"{x}!{options.get('k', '')}" for x in inputs]

    async def main():
        batcher = MicroBatcher(predict, max_batch=16, max_wait=0.05)
        batcher.start()
        requests = [batcher.submit([f"a{i}", f"b{i}"]) for i in range(8)]
        answers = await asyncio.gather(*requests, batcher.submit(["c"], k=1))
        await batcher.stop()
        return answers

    answers = run(main())
    assert answers[:8] == [[f"a{i}!", f"b{i}!"] for i in range(8)]
    assert answers[8] == ["c!1"]  # other options: a call of its own
    assert len(calls) <= 3 and sum(calls) >= 17, calls


def test_without_batching_each_request_is_its_own_call():
    calls = []

    async def main():
        batcher = MicroBatcher(lambda x: calls.append(len(x)) or x, 1, 0.0)
        batcher.start()
        await asyncio.gather(*[batcher.submit([i]) for i in range(5)])
        await batcher.stop()

    run(main())
    assert calls == [1] * 5


def test_a_failing_call_fails_its_requests_and_the_next_call_runs():
    def predict(inputs):
        if "bad" in inputs:
            raise RuntimeError("model broke")
        return inputs

    async def main():
        batcher = MicroBatcher(predict, max_batch=2, max_wait=0.0)
        batcher.start()
        with pytest.raises(RuntimeError, match="model broke"):
            await batcher.submit(["bad"])
        answer = await batcher.submit(["good"])
        await batcher.stop()
        return answer

    assert run(main()) == ["good"]


@pytest.mark.parametrize(
    "max_batch, max_wait, name",
    [(0, 0.01, "max_batch"), (2.5, 0.01, "max_batch"), (4, -1, "max_wait")],
)
def test_bad_settings_are_named(max_batch, max_wait, name):
    with pytest.raises(ValueError, match=name):
        MicroBatcher(lambda x: x, max_batch, max_wait)
