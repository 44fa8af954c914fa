"""One ``leyden serve`` process per test module of this folder."""
import pytest

from tests.drivers import Server


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()
