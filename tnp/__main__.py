"""``python -m tnp coverage [-v]`` | ``python -m tnp run [--report | --compare [--rtol R]]
[--processes N [--devices-per-process K]] (SCRIPT.py | -m MODULE) [args]`` (see ``python -m tnp
run --help``; ``--processes``: the program run by N local processes as one program over all
their devices) | ``python -m tnp config
[--markdown]`` (each TNP_* setting, its value and its source: default, environment, run time;
``--markdown``: the README's table of the settings) | ``python -m tnp cache [--clear]`` (the
persistent compilation cache: its directory, entries and size; ``--clear`` deletes its
entries)"""
import sys


def coverage(argv):
    import warnings
    warnings.simplefilter("ignore")
    from tnp import _inventory
    inv = _inventory.inventory()
    verbose = "-v" in argv or "--verbose" in argv
    print(f"{'namespace':<16}{'NumPy names':>12}{'native':>9}{'fallback':>10}{'missing':>9}"
          f"{'native %':>10}")
    for ns, groups in inv.items():
        total = sum(len(v) for v in groups.values())
        native = len(groups["native"])
        print(f"{ns:<16}{total:>12}{native:>9}{len(groups['fallback']):>10}"
              f"{len(groups['missing']):>9}{100.0 * native / max(total, 1):>9.1f}%")
    for ns, groups in inv.items():
        for kind in ("fallback", "missing"):
            if groups[kind] and (verbose or kind == "missing"):
                print(f"\n{ns} — {kind} ({len(groups[kind])}):")
                print("  " + " ".join(groups[kind]))
    if not verbose:
        print("\n(-v lists the names that go through the fallback path)")
    return 0


def config(argv):
    from tnp._core import settings
    print(settings.markdown() if "--markdown" in argv else settings.report())
    return 0


def cache(argv):
    from tnp._core.engine import compilecache
    if "--clear" in argv:
        n = compilecache.clear()
        print(f"deleted {n} files from {compilecache.directory()}")
    print(compilecache.describe())
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd == "coverage":
        return coverage(rest)
    if cmd == "config":
        return config(rest)
    if cmd == "cache":
        return cache(rest)
    if cmd == "run":
        from tnp import _porting
        return _porting.main(rest)
    print(f"unknown command {cmd!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
