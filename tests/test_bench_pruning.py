"""bench/pruning.py on the demo organisation: the planned (pruned, narrowed) reads give the
facts of reading every provider for every subject. A change to what a plan reads by default
(the changes read only on request) once made every case of the benchmark wrong without a
test noticing."""

from __future__ import annotations

from bench import pruning


async def test_the_pruning_benchmark_finds_no_wrong_case_on_the_demo() -> None:
    result = await pruning.main([])
    demo = result["demo"]
    assert demo["cases"] > 100 and demo["facts"] > 100 and demo["pruned"] > 0
    assert result["wrong"] == 0, demo
