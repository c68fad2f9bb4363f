from concurrent.futures import ProcessPoolExecutor

import queens

N = 17


def count_some(ids):
    return queens.count_units(N, ids, threads=1)


if __name__ == "__main__":
    plan = queens.plan(N)
    ids = [unit.id for unit in plan]
    chunks = [ids[i::8] for i in range(8)]          # any split will do
    with ProcessPoolExecutor() as pool:
        parts = {}
        for part in pool.map(count_some, chunks):
            parts.update(part)                      # {unit id: solutions}
    total = sum(parts.values())
    print(len(parts), "units of", len(plan), "->", total)
    assert sorted(parts) == ids and total == queens.count(N) == queens.known_total(N)
