"""``leyden serve`` over HTTP: games, Leyden's turns, and bad requests that must get a clear
error and leave the game and the server working."""
import time


def new(server, **body):
    body.setdefault("level", "1")
    status, state = server.request("POST", "/api/games", body)
    assert status == 200, state
    return state


def test_info_lists_every_game_with_its_board(server):
    status, info = server.request("GET", "/api/info")
    assert status == 200
    games = {g["name"]: g for g in info["games"]}
    assert set(games) == {"normal", "capablanca", "caparandom", "energizer", "sultan",
                          "sultanrandom", "batteries", "enders"}
    assert (games["enders"]["files"], games["enders"]["ranks"]) == (5, 11)
    assert games["enders"]["gates"] == ["c1", "c11"] and "a1" in games["enders"]["holes"]
    assert [p["name"] for p in games["sultan"]["legend"]].count("Courier") == 1


def test_page_and_static_files_are_served(server):
    status, html = server.request("GET", "/")
    assert status == 200 and "/static/app.js" in html
    for name in ("app.js", "board.js", "glyphs.js", "style.css"):
        assert server.request("GET", f"/static/{name}")[0] == 200


def test_a_move_gets_leydens_reply(server):
    state = new(server, game="capablanca")
    assert "e2e4" in state["legal"] and state["turn"] == "w"
    status, state = server.request("POST", f"/api/games/{state['id']}/move", {"move": "e2e4"})
    assert status == 200 and state["turns"][0]["actions"] == ["e2e4"]
    state = server.wait_idle(state["id"])
    assert len(state["turns"]) == 2 and state["turns"][1]["side"] == "b"
    assert state["turn"] == "w" and state["legal"] and state["engine"]["depth"] >= 1


def test_enders_leyden_plays_a_whole_turn(server):
    state = new(server, game="enders")
    gid = state["id"]
    for action in ("R@c1", "c1c3", "@@@@"):
        status, state = server.request("POST", f"/api/games/{gid}/move", {"move": action})
        assert status == 200, state
    state = server.wait_idle(gid)
    white, black = state["turns"]
    assert white["actions"] == ["R@c1", "c1c3", "@@@@"]
    assert black["side"] == "b" and len(black["actions"]) >= 1
    assert state["turn"] == "w" and state["holdings"]["w"]["R"] == 1
    # Take-back returns to the start of the human's turn, Leyden's turn undone with it.
    status, state = server.request("POST", f"/api/games/{gid}/takeback")
    assert status == 200 and state["turns"] == [] and state["holdings"]["w"]["R"] == 2


def test_unknown_game_bad_fen_and_seed_are_refused(server):
    status, body = server.request("POST", "/api/games", {"game": "xiangqi"})
    assert status == 400 and "unknown game 'xiangqi'" in body["error"]
    status, body = server.request("POST", "/api/games", {"game": "normal", "fen": "rnbqkbnr/8 w"})
    assert status == 400 and body["error"].startswith("bad FEN")
    status, body = server.request("POST", "/api/games", {"game": "normal", "seed": 3})
    assert status == 400 and "no shuffled setup" in body["error"]
    status, body = server.request("POST", "/api/games", {"game": "normal", "level": "9"})
    assert status == 400 and "unknown level" in body["error"]


def test_seeded_shuffle_is_reproducible(server):
    a = new(server, game="caparandom", seed=7)
    b = new(server, game="caparandom", seed=7)
    c = new(server, game="caparandom", seed=8)
    assert a["fen"] == b["fen"] != c["fen"] and a["seed"] == 7


def test_malformed_requests_get_clear_errors(server):
    gid = new(server, game="normal")["id"]
    status, body = server.request("POST", f"/api/games/{gid}/move", raw=b"{move: e2e4")
    assert status == 400 and body["error"].startswith("malformed JSON")
    status, body = server.request("POST", f"/api/games/{gid}/move", raw=b"[1, 2]")
    assert status == 400 and "JSON object" in body["error"]
    status, body = server.request("POST", f"/api/games/{gid}/move", {"move": 5})
    assert status == 400 and "'move' must be str" in body["error"]
    status, body = server.request("POST", f"/api/games/{gid}/move", raw=b"\xff\xfe\x00junk")
    assert status == 400
    status, body = server.request("POST", f"/api/games/{gid}/move", raw=b"x" * 100_000)
    assert status == 413
    status, body = server.request("GET", "/api/games/0123456789abcdef")
    assert status == 404 and "unknown game id" in body["error"]
    status, body = server.request("GET", "/api/nothing-here")
    assert status == 404 and body["error"]
    # The game is untouched and goes on.
    status, state = server.request("POST", f"/api/games/{gid}/move", {"move": "d2d4"})
    assert status == 200 and state["turns"][0]["actions"] == ["d2d4"]


def test_illegal_move_is_refused_and_the_game_goes_on(server):
    gid = new(server, game="batteries")["id"]
    for bad in ("e2e5", "", "zz", "d3d5,d5d6", "N@c1"):
        status, body = server.request("POST", f"/api/games/{gid}/move", {"move": bad})
        assert status == 400 and "illegal move" in body["error"], (bad, body)
    status, state = server.request("GET", f"/api/games/{gid}")
    assert state["turns"] == [] and state["turn"] == "w"
    status, state = server.request("POST", f"/api/games/{gid}/move", {"move": "d3d5"})
    assert status == 200


def test_second_move_while_leyden_thinks_is_refused(server):
    state = new(server, game="normal", level="4")  # 3 s a turn: long enough to interrupt
    gid = state["id"]
    status, state = server.request("POST", f"/api/games/{gid}/move", {"move": "e2e4"})
    assert state["thinking"]
    status, body = server.request("POST", f"/api/games/{gid}/move", {"move": "d2d4"})
    assert status == 409 and "thinking" in body["error"]
    # Take-back stops the search at once and restores the start.
    started = time.monotonic()
    status, state = server.request("POST", f"/api/games/{gid}/takeback")
    assert status == 200 and not state["thinking"] and state["turns"] == []
    assert time.monotonic() - started < 2.5, "take-back waited for the whole search"
    status, state = server.request("POST", f"/api/games/{gid}/move", {"move": "d2d4"})
    assert status == 200 and state["turns"][0]["actions"] == ["d2d4"]


def test_move_after_the_end_and_out_of_turn(server):
    state = new(server, game="normal", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", human="b")
    assert state["outcome"] == {"result": "1/2-1/2", "reason": "stalemate"}
    status, body = server.request("POST", f"/api/games/{state['id']}/move", {"move": "h8h7"})
    assert status == 409 and "the game is over: stalemate" in body["error"]
    state = new(server, game="normal", human="b", level="4")
    status, body = server.request("POST", f"/api/games/{state['id']}/move", {"move": "e7e5"})
    assert status == 409


def test_time_forfeit_and_resignation(server):
    state = new(server, game="sultan", minutes=0.01, increment=0)  # 0.6 s
    time.sleep(0.8)
    status, state = server.request("GET", f"/api/games/{state['id']}")
    assert state["outcome"] == {"result": "0-1", "reason": "White lost on time"}
    state = new(server, game="energizer", human="w")
    status, state = server.request("POST", f"/api/games/{state['id']}/resign")
    assert state["outcome"] == {"result": "0-1", "reason": "White resigns"}


def test_pgn_has_the_game_in_readme_notation(server):
    gid = new(server, game="enders")["id"]
    for action in ("N@c1", "c1b3", "@@@@"):
        server.request("POST", f"/api/games/{gid}/move", {"move": action})
    server.wait_idle(gid)
    status, text = server.request("GET", f"/api/games/{gid}/pgn")
    assert status == 200
    assert '[Variant "enders"]' in text and '[White "Human"]' in text
    assert "\n1. N@c1,c1b3 " in text and '[TimeControl "600+5"]' in text


def test_server_survives_everything(server):
    assert server.proc.poll() is None
    assert server.request("GET", "/api/info")[0] == 200
