"""Package checks are shared fairly between projects: a project's burst of uploads does not
queue another project's upload behind all of it."""

from __future__ import annotations

import asyncio

from service.api.fair_slots import FairSlots


def test_a_freed_slot_goes_to_the_project_holding_fewest_then_the_earliest() -> None:
    async def scenario() -> list[str]:
        slots, started, finish = FairSlots(2), [], asyncio.Event()

        async def check(name: str, project: str) -> None:
            async with slots.slot(project):
                started.append(name)
                await finish.wait()

        # project a uploads five packages at once; b one, after them
        tasks = [asyncio.create_task(check(f"a{i}", "a")) for i in range(5)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(check("b0", "b")))
        await asyncio.sleep(0.01)
        assert started == ["a0", "a1"] and slots.held == {"a": 2}
        finish.set()  # a0 and a1 end: one freed slot goes to b, ahead of a's three
        await asyncio.gather(*tasks)
        return started

    assert asyncio.run(scenario())[:4] == ["a0", "a1", "b0", "a2"]


def test_a_request_given_up_while_waiting_or_holding_frees_its_place() -> None:
    async def scenario() -> FairSlots:
        slots, hold = FairSlots(1), asyncio.Event()

        async def check(project: str) -> None:
            async with slots.slot(project):
                await hold.wait()

        holder = asyncio.create_task(check("a"))
        waiter = asyncio.create_task(check("b"))
        await asyncio.sleep(0.01)
        waiter.cancel()  # its client went away before it got a slot
        await asyncio.sleep(0.01)
        assert slots.waiting == [] and slots.held == {"a": 1}
        holder.cancel()  # and one that held its slot
        await asyncio.gather(holder, waiter, return_exceptions=True)
        return slots

    slots = asyncio.run(scenario())
    assert sum(slots.held.values()) == 0 and slots.waiting == []
