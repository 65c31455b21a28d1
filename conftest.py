"""The repository's pytest options (``pytest_addoption`` must live in the rootdir's conftest)."""


def pytest_addoption(parser):
    parser.addoption(
        "--placement", choices=("device", "auto", "sharded", "both"), default="both",
        help="conformance_tests' placements: 'device' (every numeric array on the device), "
             "'auto' (the default placement: small arrays NumPy's own on the host tier), "
             "'sharded' (every numeric array on the device, laid out over every device: split "
             "from one element per device; run with several devices) or "
             "'both' (every conformance test once in device and auto; the default)")
