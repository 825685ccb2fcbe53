"""NetworkX's own test suite through the semigraph backend, strict (NetworkX's test mode: every
dispatchable call goes to the backend, no fallback), as CI runs it:

    cd /tmp && NETWORKX_TEST_BACKEND=semigraph python /path/to/networkx_suite.py

Fails if a test fails, or if the backend answered fewer than MIN_FUNCTIONS of its functions
(a conversion that breaks would turn every call into an expected failure and pass silently).
Prints the functions that ran on semigraph and their calls.
"""

import os
import sys

import networkx as nx
import pytest

import semigraph.nx as backend

# The functions NetworkX's 3.6 tests reach through the backend (44 on 2026-12-07); a drop
# below this means the backend stopped being exercised.
MIN_FUNCTIONS = 35


def main():
    if os.environ.get("NETWORKX_TEST_BACKEND") != "semigraph":
        sys.exit("set NETWORKX_TEST_BACKEND=semigraph (NetworkX's strict test mode)")
    if tuple(int(x) for x in nx.__version__.split(".")[:2]) < (3, 4):
        print(f"NetworkX {nx.__version__}: its test mode for backends needs 3.4 or later; skipped")
        return
    rc = pytest.main(["-q", "-p", "no:cacheprovider", "--pyargs", "networkx"])
    calls = dict(sorted(backend.calls.items()))
    print(f"semigraph answered {len(calls)} functions in {sum(calls.values())} calls: {calls}")
    if rc != 0:
        sys.exit(f"NetworkX's suite through the backend failed (pytest exit {int(rc)})")
    if len(calls) < MIN_FUNCTIONS:
        sys.exit(f"the backend answered {len(calls)} functions, fewer than {MIN_FUNCTIONS}")


if __name__ == "__main__":
    main()
