"""The repository's pytest options (``pytest_addoption`` must live in the rootdir's conftest)."""


def pytest_addoption(parser):
    parser.addoption(
        "--placement", choices=("device", "auto", "both"), default="both",
        help="conformance_tests' placements: 'device' (every numeric array on the device), "
             "'auto' (the default placement: small arrays NumPy's own on the host tier) or "
             "'both' (every conformance test once in each; the default)")
