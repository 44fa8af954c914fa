"""The ``leyden serve`` page in a real browser: headless Debian Chromium driven by Selenium.

Every game is played through clicks on the SVG board (the moves picked from the page's
own list of legal moves); Ender's Chess through the holdings, the gate and End turn;
Batteries' charged capture and overtaking through their marks. Skipped where Chromium
or chromedriver is missing.
"""
import json
import os
import random
import shutil
import tempfile

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
INSTALL = "apt-get install chromium chromium-driver; pip install selenium"

webdriver = pytest.importorskip("selenium.webdriver", reason=f"selenium missing: {INSTALL}")
if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    pytest.skip(f"no Chromium/chromedriver: {INSTALL}", allow_module_level=True)

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

GAMES = ["normal", "capablanca", "caparandom", "energizer", "sultan", "sultanrandom",
         "batteries", "enders"]


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="leyden-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--window-size=1300,1000", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


class Page:
    """The page of one game in the browser, and the server's view of that game."""

    def __init__(self, browser, server, query: str):
        self.b, self.server = browser, server
        browser.get(f"{server.url}/?{query}")
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return page.state && page.state.id"))
        self.gid = browser.execute_script("return page.state.id")

    def state(self) -> dict:
        return self.server.wait_idle(self.gid)

    def js_state(self) -> dict:
        return self.b.execute_script("return page.state")

    def square(self, sq):
        return self.b.find_element(By.CSS_SELECTOR, f'rect.sq[data-sq="{sq}"]')

    def click(self, sq):
        self.square(sq).click()

    def marks(self) -> dict:
        out = {}
        for m in self.b.find_elements(By.CSS_SELECTOR, ".mark"):
            out[m.get_attribute("data-sq")] = m.get_attribute("class").split()[1]
        return out

    def wait_my_turn(self) -> dict:
        """Wait until Leyden has played and the page shows it."""
        state = self.state()
        WebDriverWait(self.b, 20).until(lambda d: d.execute_script(
            "return page.state.version") == state["version"] and not d.execute_script("return page.state.thinking"))
        return state

    def text(self, element_id: str) -> str:
        return self.b.find_element(By.ID, element_id).text

    def play(self, move: str) -> None:
        """Enter ``move`` by clicks, checking that each target is marked first."""
        before = self.js_state()["version"]
        if "@" in move and move != "@@@@":
            letter, gate = move.split("@")
            side = self.js_state()["turn"]
            self.b.find_element(By.CSS_SELECTOR, f'.hold[data-side="{side}"][data-piece="{letter}"]').click()
            assert self.marks().get(gate) == "move"
            self.click(gate)
        elif move == "@@@@":
            self.b.find_element(By.ID, "end-turn").click()
        elif "," in move:
            a, b = move.split(",")
            frm, via, to = a[:len(a) // 2], b[:len(b) // 2], b[len(b) // 2:]
            self.click(frm)
            assert self.marks().get(via) == "via", self.marks()
            self.click(via)
            assert self.marks().get(to) == "leg2", self.marks()
            self.click(to)
        else:
            frm, to, promo = split_move(move)
            self.click(frm)
            assert to in self.marks(), (move, self.marks())
            self.click(to)
            if promo:
                WebDriverWait(self.b, 5).until(lambda d: d.find_element(By.ID, "promo-dialog").is_displayed())
                self.b.find_element(By.CSS_SELECTOR, f'button.promo[data-piece="{promo}"]').click()
        WebDriverWait(self.b, 10).until(lambda d: d.execute_script("return page.state.version") != before)
        assert self.text("error") == ""


def split_move(move: str):
    """``e7e8q`` -> ("e7", "e8", "q"); ``e10e9`` -> ("e10", "e9", "")."""
    promo = move[-1] if move[-1].isalpha() else ""
    body = move[:-1] if promo else move
    second = next(i for i in range(1, len(body)) if body[i].isalpha())
    return body[:second], body[second:], promo


def piece_on(page: Page, sq: str):
    return page.js_state()["board"].get(sq)


@pytest.mark.parametrize("game", GAMES)
def test_short_game_through_clicks(browser, server, game):
    rng = random.Random(game)
    page = Page(browser, server, f"game={game}&level=1")
    for _ in range(3):
        state = page.wait_my_turn()
        if state["outcome"]:
            break
        if game == "enders":
            turn = []
            for _ in range(3):  # drop and move a few pieces, then end the turn by the button
                choices = [m for m in page.js_state()["legal"] if m != "@@@@"]
                if not choices or page.js_state()["turn"] != "w":
                    break
                move = rng.choice(choices)
                page.play(move)
                turn.append(move)
            if page.js_state()["turn"] == "w":
                page.play("@@@@")
            assert page.state()["turns"][-2]["actions"][:len(turn)] == turn
        else:
            move = rng.choice(state["legal"])
            page.play(move)
            assert page.state()["turns"][-2]["actions"] == [move]
    state = page.wait_my_turn()
    assert len(state["turns"]) >= 4
    shown = page.text("moves")
    for turn in state["turns"]:
        actions = turn["actions"]
        text = ",".join(actions[:-1] if len(actions) > 1 and actions[-1] == "@@@@" else actions)
        assert text in shown
    # Every piece the server holds is drawn where it stands.
    drawn = {g.get_attribute("data-piece-sq") for g in browser.find_elements(By.CSS_SELECTOR, "[data-piece-sq]")}
    assert drawn == set(state["board"])


def test_enders_drop_moves_end_turn_and_leydens_whole_turn(browser, server):
    page = Page(browser, server, "game=enders&level=2")
    assert not browser.find_element(By.ID, "end-turn").get_attribute("disabled")
    page.play("R@c1")
    assert piece_on(page, "c1") == "R" and page.js_state()["holdings"]["w"]["R"] == 1
    page.play("c1c3")
    # The Rook has moved this turn: it has no targets any more.
    page.click("c3")
    assert page.marks() == {}
    page.play("@@@@")
    state = page.wait_my_turn()
    leyden = state["turns"][1]["actions"]
    assert state["turns"][0]["actions"] == ["R@c1", "c1c3", "@@@@"] and len(leyden) >= 2
    # Leyden's actions are listed in order and numbered on the board.
    listed = page.text("leyden-turn")
    for i, action in enumerate(leyden, 1):
        assert f"{i}. {'end turn' if action == '@@@@' else action}" in listed
    numbers = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "text.arrow-n")]
    assert numbers == [str(i) for i, a in enumerate(leyden, 1) if a != "@@@@"]
    # Second turn: drop, move the new piece and the old one.
    page.play("N@c1")
    page.play("c1b3")
    page.play("c3c5")
    page.play("@@@@")
    state = page.wait_my_turn()
    assert state["turns"][2]["actions"] == ["N@c1", "c1b3", "c3c5", "@@@@"]
    assert "N@c1,c1b3,c3c5" in page.text("moves")


BATTERY_FEN = "9k/10/3s6/10/10/4d5/3A6/2B7/10/K9 w - - 0 1"


def test_batteries_charged_capture_and_overtaking(browser, server):
    page = Page(browser, server, "game=batteries&level=1&fen=" + BATTERY_FEN.replace(" ", "%20"))
    page.click("d4")
    marks = page.marks()
    assert marks["d8"] == "capture"  # charged by the Battery on c3: a full Rook's capture
    assert marks["e5"] == "via"  # the Diag can be overtaken
    page.click("d4")  # deselect
    page.play("d4e5,e5f6")
    state = page.state()
    assert state["turns"][0]["actions"] == ["d4e5,e5f6"]
    assert state["board"]["f6"] == "A" and "e5" not in state["board"]

    page = Page(browser, server, "game=batteries&level=1&fen=" + BATTERY_FEN.replace(" ", "%20"))
    page.play("d4d8")
    state = page.state()
    assert state["turns"][0]["actions"] == ["d4d8"] and state["board"]["d8"] == "A"


def test_promotion_asks_for_the_piece(browser, server):
    fen = "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1"
    page = Page(browser, server, "game=capablanca&level=1&fen=" + fen.replace(" ", "%20"))
    page.click("b7")
    assert page.marks()["b8"] == "promo"
    page.click("b8")
    choices = [b.get_attribute("data-piece") for b in browser.find_elements(By.CSS_SELECTOR, "button.promo")]
    assert sorted(choices) == sorted("qcarbn")
    browser.find_element(By.CSS_SELECTOR, 'button.promo[data-piece="c"]').click()
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return page.state.board.b8") == "C")


def test_mate_is_announced(browser, server):
    page = Page(browser, server, "game=normal&level=1&fen=" + "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".replace(" ", "%20"))
    page.play("a1a8")
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "outcome").is_displayed())
    assert page.text("outcome") == "1-0 White mates"
    assert page.js_state()["legal"] == []


def test_drag_takeback_flip_and_copy_fen(browser, server):
    page = Page(browser, server, "game=normal&level=1")
    e2, e4 = page.square("e2"), page.square("e4")
    dy = e4.rect["y"] - e2.rect["y"]  # the board is redrawn on pick-up: move by offsets
    ActionChains(browser).click_and_hold(e2).move_by_offset(0, dy // 2).move_by_offset(0, dy - dy // 2) \
        .release().perform()
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return page.state.turns.length") >= 1)
    state = page.wait_my_turn()
    assert state["turns"][0]["actions"] == ["e2e4"]
    browser.find_element(By.ID, "take-back").click()
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return page.state.turns.length") == 0)
    y_before = page.square("a1").rect["y"]
    browser.find_element(By.ID, "flip").click()
    assert page.square("a1").rect["y"] < y_before  # a1 now at the top
    browser.find_element(By.ID, "copy-fen").click()
    assert browser.find_element(By.ID, "export").get_attribute("value") == page.state()["fen"]


def test_watch_leyden_play_itself(browser, server):
    page = Page(browser, server, "game=sultan&side=none&level=1")
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return page.state.turns.length") >= 6)
    state = page.js_state()
    assert state["human"] == "none" and state["legal"] == []
    browser.find_element(By.ID, "new-game").click()  # a new game ends the old one's searching
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return page.state.id") != page.gid)
    status, old = server.request("GET", f"/api/games/{page.gid}")
    assert status == 404 or not old["thinking"]


def test_bad_fen_is_reported_on_the_page(browser, server):
    page = Page(browser, server, "game=normal&level=1")
    box = browser.find_element(By.ID, "fen-input")
    box.clear()
    box.send_keys("not a fen")
    browser.find_element(By.ID, "new-game").click()
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "error").text)
    assert page.text("error").startswith("bad FEN")
    assert browser.execute_script("return page.state.id") == page.gid  # the old game stays
    logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "400" not in e["message"]]
    assert logs == [], json.dumps(logs)
