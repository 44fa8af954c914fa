"""``leyden serve``: the web server (Starlette on uvicorn) and its JSON API.

Every browser tab holds one game (its id lives in the tab's sessionStorage). The API:

    GET  /api/info                     games (board, pieces, legend), levels
    POST /api/games                    {"game", "fen"?, "seed"?, "human", "level", "minutes", "increment"}
    GET  /api/games/ID                 the game's state (the page polls it while Leyden thinks)
    POST /api/games/ID/move            {"move": "e2e4"}     (README notation; Ender's: one action)
    POST /api/games/ID/takeback | resign | close
    POST /api/games/ID/level           {"level": "3"}
    GET  /api/games/ID/pgn

Errors are JSON ``{"error": "..."}`` with status 400 (bad request or illegal move), 404
(unknown game), 409 (not now: Leyden is thinking, the game is over, not your turn), 413
(body too large).
"""
from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from movegen import GAMES

from .legend import legend
from .pgn import game_pgn
from .session import DEFAULT_LEVEL, LEVELS, GameError, Session

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024  #: a FEN and a few fields need far less
MAX_GAMES = 16  #: games kept at once (16 MB of hash each); the one untouched longest goes first


class GameStore:
    """The live games by id."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self._games: dict[str, Session] = {}
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        gid = secrets.token_hex(8)
        with self._lock:
            while len(self._games) >= self.limit:
                oldest = min(self._games, key=lambda k: self._games[k].touched)
                self._games.pop(oldest).close()
            self._games[gid] = session
        return gid

    def get(self, gid: str) -> Session:
        with self._lock:
            session = self._games.get(gid)
        if session is None:
            raise GameError("unknown game id (the server was restarted or the game was closed);"
                            " start a new game", 404)
        return session

    def close(self, gid: str) -> None:
        with self._lock:
            session = self._games.pop(gid, None)
        if session is not None:
            session.close()

    def close_all(self) -> None:
        with self._lock:
            games, self._games = list(self._games.values()), {}
        for session in games:
            session.close()


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict:
    """The request's JSON object; GameError (400/413) for anything else."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise GameError(f"request body larger than {MAX_BODY} bytes", 413)
    if not data.strip():
        return {}
    try:
        body = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise GameError(f"malformed JSON: {exc}") from None
    if not isinstance(body, dict):
        raise GameError("the request body must be a JSON object")
    return body


def _field(body: dict, name: str, kind, default=None, *, allow_none=False):
    value = body.get(name, default)
    if value is None and (allow_none or default is None):
        return None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise GameError(f"field {name!r} must be {kind.__name__}")
    return value


def _state(gid: str, session: Session) -> dict:
    state = session.state()
    state["id"] = gid
    return state


def build_app(store: GameStore | None = None) -> Starlette:
    store = store or GameStore()

    async def info(request):
        games = [{"name": g.name, "files": g.files, "ranks": g.ranks, "holes": list(g.holes),
                  "gates": list(g.gates), "drops": g.drops, "shuffle": bool(g.shuffle),
                  "promotions": g.promotions, "start_fen": g.start_fen, "legend": legend(g),
                  "family": ("chess", "batteries", "enders")[g.family]}
                 for g in GAMES.values()]
        levels = [{"name": lv.name, "label": lv.label} for lv in LEVELS.values()]
        return JSONResponse({"games": games, "levels": levels, "default_level": DEFAULT_LEVEL})

    async def new_game(request):
        body = await _body(request)
        minutes = _field(body, "minutes", float, 10.0, allow_none=True)  # null: no clock
        seed = _field(body, "seed", int)
        if seed is not None and not 0 <= seed < 2**31:
            raise GameError("seed must be 0 to 2**31-1")
        kwargs = dict(fen=_field(body, "fen", str) or None, seed=seed,
                      human=_field(body, "human", str, "w"),
                      level=_field(body, "level", str, DEFAULT_LEVEL),
                      minutes=minutes, increment=_field(body, "increment", float, 5.0))
        game = _field(body, "game", str, "normal")
        session = await run_in_threadpool(lambda: Session(game, **kwargs))
        gid = store.add(session)
        return JSONResponse(_state(gid, session))

    async def get_game(request):
        gid = request.path_params["gid"]
        session = store.get(gid)
        return JSONResponse(await run_in_threadpool(_state, gid, session))

    def action(method):
        async def endpoint(request):
            gid = request.path_params["gid"]
            session = store.get(gid)
            body = await _body(request)
            await run_in_threadpool(method, session, body)
            return JSONResponse(await run_in_threadpool(_state, gid, session))
        return endpoint

    async def close(request):
        store.close(request.path_params["gid"])
        return JSONResponse({"closed": True})

    async def pgn(request):
        session = store.get(request.path_params["gid"])
        return PlainTextResponse(await run_in_threadpool(game_pgn, session))

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def game_error(request, exc: GameError):
        return _error(str(exc), exc.status)

    async def http_error(request, exc: HTTPException):
        return _error(exc.detail or "error", exc.status_code)

    async def crash(request, exc: Exception):
        return _error(f"internal error: {exc!r}", 500)

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game),
        Route("/api/games/{gid}/move", action(lambda s, b: s.play(_field(b, "move", str, ""))),
              methods=["POST"]),
        Route("/api/games/{gid}/takeback", action(lambda s, b: s.take_back()), methods=["POST"]),
        Route("/api/games/{gid}/resign", action(lambda s, b: s.resign()), methods=["POST"]),
        Route("/api/games/{gid}/level",
              action(lambda s, b: s.set_level(_field(b, "level", str, ""))), methods=["POST"]),
        Route("/api/games/{gid}/close", close, methods=["POST"]),
        Route("/api/games/{gid}/pgn", pgn),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close_all()  # stop every search before the process ends

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={GameError: game_error, HTTPException: http_error,
                                        Exception: crash})
    app.state.store = store
    return app


def _port_free(host: str, port: int) -> bool:
    import socket
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def run(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, log=print) -> int:
    """Load the kernels, serve until interrupted; with ``open_browser`` open the page."""
    import uvicorn

    if not _port_free(host, port):
        log(f"error: port {port} on {host} is in use; try --port {port + 1}")
        return 2
    start = time.perf_counter()
    log("loading the engine (the very first run compiles it: about a minute)...")
    from search import warmup
    warmup()
    log(f"engine ready in {time.perf_counter() - start:.1f} s")
    url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
    config = uvicorn.Config(build_app(), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)

    def announce():
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            log(f"Leyden serves the games on {url}  (Ctrl-C stops it)")
            if open_browser:
                import webbrowser
                webbrowser.open(url)
    threading.Thread(target=announce, daemon=True).start()
    server.run()
    return 0
