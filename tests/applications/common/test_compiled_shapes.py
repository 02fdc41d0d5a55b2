"""`CompiledShapes`: a call at a new shape compiles it, unless the server
routes it through a compiled shape, whose answers are the same."""

import threading

import numpy as np

from attention_zoo.applications.common.compiled_shapes import CompiledShapes


def search(x):
    """A stand-in for a compiled search of ids `(B, T)` (0 the padding):
    each row's sum and length, and a row of attention per input column,
    which padding columns do not change."""
    x = np.asarray(x)
    return x.sum(1), (x != 0).sum(1), x.astype("float32") / 10


def shapes_with(*compiled) -> CompiledShapes:
    shapes = CompiledShapes()
    shapes.register("search", (None,))
    for shape in compiled:
        shapes.call("search", search, np.ones(shape, "int32"))
    return shapes


def test_a_new_shape_compiles_until_routing_is_on():
    shapes = shapes_with((1, 8))
    shapes.call("search", search, np.ones((2, 4), "int32"))
    assert shapes.shapes("search") == {(1, 8), (2, 4)}
    assert (shapes.compiles, shapes.unplanned) == (2, 0)


def test_routed_calls_compile_nothing_and_answer_alike():
    x = np.array([[3, 1, 0, 0], [2, 0, 0, 0], [5, 5, 5, 1]], "int32")
    shapes = shapes_with((1, 8))
    shapes.routing = True
    sums, lengths, attention = shapes.call("search", search, x)
    expected = search(x)
    np.testing.assert_array_equal(sums, expected[0])
    np.testing.assert_array_equal(lengths, expected[1])
    np.testing.assert_array_equal(attention[:, :4], expected[2])
    assert not attention[:, 4:].any()  # padded columns
    assert (shapes.compiles, shapes.unplanned) == (1, 0)
    assert shapes.used[("search", (1, 8))] == 1 + 3  # compiled, then 3 chunks


def test_the_smallest_compiled_shape_holding_the_call_is_used():
    shapes = shapes_with((1, 8), (4, 8), (16, 8), (4, 4))
    shapes.routing = True
    shapes.call("search", search, np.ones((3, 4), "int32"))
    assert shapes.used[("search", (4, 4))] == 2
    shapes.call("search", search, np.ones((5, 6), "int32"))
    assert shapes.used[("search", (16, 8))] == 2
    assert shapes.unplanned == 0


def test_fixed_axes_are_never_padded():
    shapes = CompiledShapes()
    shapes.register("fixed", (4,))
    shapes.call("fixed", search, np.ones((1, 4), "int32"))
    shapes.routing = True
    shapes.call("fixed", search, np.ones((1, 3), "int32"))  # nothing holds it
    assert shapes.unplanned == 1


def test_the_warm_up_compiles_while_requests_are_routed():
    shapes = shapes_with((1, 8))
    shapes.routing = True
    with shapes.compiling():
        shapes.call("search", search, np.ones((4, 8), "int32"))
    seen = []
    thread = threading.Thread(
        target=lambda: seen.append(
            shapes.call("search", search, np.ones((2, 2), "int32"))
        )
    )
    thread.start()
    thread.join()
    assert shapes.shapes("search") == {(1, 8), (4, 8)}
    assert shapes.used[("search", (4, 8))] == 2  # compiled, then the request
    assert (shapes.compiles, shapes.unplanned) == (2, 0)
