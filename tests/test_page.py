"""The page in a real browser: Debian's Chromium, headless, driven by Playwright, against the real
`pipscover serve` on 127.0.0.1. Puzzles of our own making are played to "solved" by clicks, by drags and by
the keyboard alone; a hint highlights its cells, a wrong domino is named, a reload keeps the position.
Screenshots at 1280x800 and 390x844 are written under the test's temporary folder. Skipped where Chromium
or Playwright is absent (Playwright never downloads a browser here)."""

from __future__ import annotations

import json
from collections import deque
from dataclasses import replace
from pathlib import Path

import pytest
from serving import DAY, slowed, start_server, stop_server, write_day

from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate
from pipscover.hints import hint
from pipscover.model import Puzzle
from pipscover.serve.jobs import made_view

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}")
# The features Playwright 1.65 disables on Linux (its chromiumSwitches.ts). Chromium takes only the last
# --disable-features it is given, so the one below repeats them.
PLAYWRIGHTS_DISABLED = ["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
                        "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
                        "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "OptimizationHints",
                        "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch"]
# Chromium as root in a container: no sandbox; nothing fetched from the network behind the test's back; not the
# two omnibox popups Chromium 156 preloads for an address bar no test has, each in a renderer process of its own
# (2-4 s of CPU over this file, measured in alternated pairs of runs of it).
ARGUMENTS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--disable-sync",
             "--disable-features=" + ",".join([*PLAYWRIGHTS_DISABLED, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"])]
TURNS = [(0, 1), (1, 0), (0, -1), (-1, 0)]  # as the page turns a domino: where its second half lies
ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


SCREENS = {"laptop": {"viewport": {"width": 1280, "height": 800}},
           "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True}}


@pytest.fixture(scope="module")
def url(served):
    return served[0]


@pytest.fixture(scope="module")
def browser():
    # Imported here, not at the top: each xdist worker collects every test file, and only one opens the page.
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        # Playwright gives every launch a fresh profile (its own --user-data-dir).
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGUMENTS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def module_tabs(browser):
    """A laptop tab and a phone tab (touch), each in a browser context of its own, kept for the module: a
    context per test cost a new renderer process each, twice the CPU of opening the page again in a tab."""
    contexts = {name: browser.new_context(**options) for name, options in SCREENS.items()}
    tabs = {name: context.new_page() for name, context in contexts.items()}
    for name, tab in tabs.items():
        tab.set_default_timeout(10_000)
        # Playwright's clock in place of the page's: it runs as the real one does until a test stops or moves
        # it (the timer's test), so no test waits for real seconds to pass.
        contexts[name].clock.install()
    yield tabs
    for context in contexts.values():
        context.close()


@pytest.fixture
def tabs(module_tabs, url):
    """The tabs for one test, which opens the page in them (`opened`); the page's errors, and the scripts or
    styles the Content-Security-Policy refused (console errors), fail the test. Afterwards the page forgets
    its game (so it saves none as it is left), its storage is cleared and the tab is left blank: the next
    test's page opens as on a first visit."""
    errors: list[str] = []

    def page_error(error) -> None:
        errors.append(str(error))

    def console(message) -> None:
        if message.type == "error":
            errors.append(message.text)

    for tab in module_tabs.values():
        tab.on("pageerror", page_error)
        tab.on("console", console)
    yield module_tabs
    for tab in module_tabs.values():
        if tab.url.startswith(url):
            tab.evaluate("game = null; localStorage.clear(); sessionStorage.clear()")
            tab.goto("about:blank")
        tab.remove_listener("pageerror", page_error)
        tab.remove_listener("console", console)
    assert errors == []


def opened(tab, url):
    """The page opened in `tab`, on a puzzle."""
    tab.goto(url)
    tab.wait_for_selector("rect.cell")
    return tab


@pytest.fixture
def page(tabs, url):
    return opened(tabs["laptop"], url)


def open_file(page, made, tmp_path, difficulty="medium", name=None):
    """Open one of our puzzles through the page's file picker (in a file called `name`, else DIFFICULTY.json)."""
    path = tmp_path / (name or f"{difficulty}.json")
    path.write_text(json.dumps(puzzle_to_nyt(made[difficulty].puzzle)))
    page.set_input_files("#file", str(path))
    page.wait_for_selector(f"#title:has-text('{path.name}')")  # (the policy allows no wait_for_function)
    return made[difficulty]


def moves(made):
    """Each domino of the solution as the page places it: the tray's tile, its turns, and the cell of its left (top)
    half as drawn, where a click lays it."""
    free = list(range(len(made.puzzle.dominoes)))
    for placement in made.solution.placements:
        (a, b), (first, second) = placement.domino, placement.cells
        tile = next(t for t in free if sorted(made.puzzle.dominoes[t]) == sorted((a, b)))
        free.remove(tile)
        anchor, other = (first, second) if tuple(made.puzzle.dominoes[tile]) == (a, b) else (second, first)
        yield tile, TURNS.index((other[0] - anchor[0], other[1] - anchor[1])), min(anchor, other)


def move_other(move):
    """The cell of a move's right (bottom) half."""
    _, turns, anchor = move
    return anchor[0] + turns % 2, anchor[1] + 1 - turns % 2


def cell(page, where):
    return page.locator(f"rect.cell[data-cell='{where[0]},{where[1]}']")


def tile(page, number):
    return page.locator(f".tray-domino[data-tile='{number}']")


def press(target, tapped=False):
    """A click, or a tap on a phone's touch screen (`tapped`)."""
    if tapped:
        target.tap()
    else:
        target.click()


def place_by_clicks(page, number, turns, anchor, tapped=False):
    press(tile(page, number), tapped)
    for _ in range(turns):
        press(page.locator("#turn"), tapped)
    press(cell(page, anchor), tapped)


def reveal_all(page, tapped=False):
    """Reveal all, asked and answered yes."""
    press(page.locator("#reveal-all"), tapped)
    press(page.locator("#reveal-all-yes"), tapped)


def assert_solved(page):
    page.wait_for_selector(".message.good strong:text('Solved!')", timeout=10_000)
    assert page.locator("[data-placed]").count() == len(page.evaluate("game.dominoes"))


def test_a_day_is_played_to_solved_by_clicks(page, made, tmp_path):
    page.fill("#day", DAY)
    page.click("[data-difficulty=hard]")
    page.click("#play-day")
    page.wait_for_selector("#title:has-text('(hard)')")  # in place of the easy one it opened on
    assert page.text_content("#title") == f"{DAY} (hard)"
    for number, turns, anchor in moves(made["hard"]):
        place_by_clicks(page, number, turns, anchor)
    assert_solved(page)
    page.wait_for_selector(".stats dd:text('1')")
    page.screenshot(path=str(tmp_path / "solved-1280x800.png"))


def test_a_puzzle_is_played_to_solved_by_drags(page, made, tmp_path):
    """Each domino is dropped by its centre, between its two cells' centres."""
    medium = open_file(page, made, tmp_path)
    for move in moves(medium):
        number, turns, anchor = move
        tile(page, number).click()  # in hand, turned as it must lie
        for _ in range(turns):
            page.keyboard.press("r")
        ends = [cell(page, where).bounding_box() for where in (anchor, move_other(move))]
        # Held by its centre, as on the NYT's page: dropped on the middle of its two cells.
        drag(page, tile(page, number).bounding_box(), [sum(box[axis] + box[size] / 2 for box in ends) / 2
                                                       for axis, size in (("x", "width"), ("y", "height"))])
    assert_solved(page)


def drag(page, start, end):
    """The mouse pressed on the middle of the box `start`, moved to the point `end`, and let go."""
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def test_a_domino_dropped_off_the_board_goes_back_to_the_tray(page, made):
    """A domino dragged off the board and let go beside it stayed in hand, drawn in red on the board's cell where
    the pointer had left it: dragged away to be taken back, it seemed still there. Now it goes back to the tray,
    and the board shows nothing of it."""
    place_by_clicks(page, *next(moves(made["easy"])))
    board = page.locator("#board").bounding_box()
    beside = (board["x"] + board["width"] / 2, board["y"] + board["height"] + 40)  # (under the board: nothing)
    drag(page, page.locator("[data-placed]").bounding_box(), beside)
    assert page.locator("[data-placed]").count() == 0 and page.locator(".ghost").count() == 0
    assert page.evaluate("hand") is None and page.locator(".tray-domino.held").count() == 0
    page.click("#undo")  # (the domino taken off the board, back)
    assert page.locator("[data-placed]").count() == 1


def test_a_domino_in_hand_put_on_a_placed_one_takes_its_place_and_undo_puts_both_back(page, made):
    """With a domino in hand, a click on a placed domino took that one up into the hand and sent the one in hand back
    to the tray, unsaid: the hover had shown the one in hand there, in red as if it did not fit. A click on the
    board puts the domino in hand where it is clicked, as on an empty cell: here in the placed one's place, which the
    hover shows faded, and which goes back to the tray, as the message says; one Undo puts both back."""
    (first, turns, anchor), (second, _, _) = list(moves(made["easy"]))[:2]
    place_by_clicks(page, first, turns, anchor)
    tile(page, second).click()
    for _ in range(turns):
        page.click("#turn")
    box = cell(page, anchor).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.locator(".domino.replaced").count() == 1 and page.locator(".misfit").count() == 0
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.evaluate("placed.map((p) => p.tile)") == [second] and page.evaluate("hand") is None
    assert page.locator(f".tray-domino.used[data-tile='{first}']").count() == 0
    back = "-".join(map(str, made["easy"].puzzle.dominoes[first]))
    assert f"The domino {back} is back in the tray" in page.text_content("#message")
    page.click("#undo")
    assert page.evaluate("placed.map((p) => p.tile)") == [first] and page.text_content("#message") == ""
    assert page.locator(f".tray-domino.used[data-tile='{second}']").count() == 0


def test_a_domino_taken_by_a_tap_that_moved_a_little_is_drawn_on_no_cell(page, made):
    """A tap on the tray that moved a little is a drag let go off the board, and it left the domino in hand drawn on
    the cell of the last click: over the domino just placed there, in red, as if tried there."""
    first, second = list(moves(made["easy"]))[:2]
    place_by_clicks(page, *first)
    box = tile(page, second[0]).bounding_box()
    drag(page, box, (box["x"] + box["width"] / 2 + 10, box["y"] + box["height"] / 2))
    assert page.evaluate("hand.tile") == second[0] and page.locator(".ghost").count() == 0


def test_a_hint_highlights_its_cells_and_a_wrong_domino_is_named(page, made, tmp_path):
    medium = open_file(page, made, tmp_path)
    first = next(moves(medium))
    place_by_clicks(page, *first)
    page.click("#hint")
    page.wait_for_selector(".hint-cell")
    assert page.locator(".message.hint strong").text_content()  # the rule's title
    page.screenshot(path=str(tmp_path / "hint-1280x800.png"))
    page.click("#undo")
    number, turns, anchor = next(m for m in moves(medium) if len(set(medium.puzzle.dominoes[m[0]])) == 2)
    place_by_clicks(page, number, (turns + 2) % 4, anchor)  # the right cells, the pips the wrong way round
    page.click("#check")
    page.wait_for_selector(".wrong-cell")
    assert page.locator(".wrong-cell").count() == 2
    assert "is in no solution" in page.text_content("#message") or "is wrong" in page.text_content("#message")


def test_a_hints_title_is_in_a_players_words(page, made, tmp_path):
    """A hint was headed by its rule's own term, "Sum against the pips left" on the easy day, "Forced tiling" on
    the medium one: jargon to a player. Now it says what the player does there."""
    page.click("#hint")
    page.wait_for_selector(".message.hint strong:text('Making the sum')")
    open_file(page, made, tmp_path)
    page.click("#hint")
    page.wait_for_selector(".message.hint strong:text('Only one neighbour left')")


def test_a_puzzle_without_a_solution_is_said_so_not_wrong(page, tmp_path):
    """A hint on a puzzle that has no solution (a file's: a sum of 3 from two double blanks) was headed "Wrong" on
    an empty board, as if the player had made a mistake."""
    square = [(0, 0), (0, 1), (1, 0), (1, 1)]
    path = tmp_path / "none.json"
    path.write_text(json.dumps(puzzle_to_nyt(Puzzle.build([("sum", square, 3)], [(0, 0), (0, 0)]))))
    open_on_any_screen(page, path)
    page.click("#hint")
    page.wait_for_selector(".message.bad strong:text('No solution')")
    assert "has no solution" in page.text_content("#message")


def test_a_hints_cells_are_drawn_over_the_dominoes_on_them(page, tmp_path):
    """A hint about a region names its covered cells too (here a region's sum after one of its dominoes), and
    their highlight was drawn under the dominoes: on a covered cell it showed nothing. Now it lies over them,
    see-through, so the pips show: at each highlighted cell's centre the highlight is what is on top."""
    made = generate(dominoes=4, seed=4)
    covered = ((move, set(hint(made.puzzle, (placement,)).cells) & set(placement.cells))
               for move, placement in zip(moves(made), made.solution.placements, strict=True))
    move, named = next((move, cells) for move, cells in covered if cells)
    path = tmp_path / "covered.json"
    path.write_text(json.dumps(puzzle_to_nyt(made.puzzle)))
    open_on_any_screen(page, path)
    place_by_clicks(page, *move)
    page.click("#hint")
    page.wait_for_selector(".hint-cell")
    page.eval_on_selector_all(".mark", "(marks) => marks.forEach((mark) => { mark.style.pointerEvents = 'auto'; })")
    for where in named:  # (the highlight lets the pointer through to the domino; here it is stopped, to be found)
        box = cell(page, where).bounding_box()
        on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).getAttribute('class')",
                               [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert on_top == "mark hint-cell", where
    assert float(page.eval_on_selector(".hint-cell", "(mark) => getComputedStyle(mark).fillOpacity")) < 0.5


def test_a_reload_keeps_the_position_and_undo_redo_work(page, made, tmp_path):
    medium = open_file(page, made, tmp_path)
    for move in list(moves(medium))[:2]:
        place_by_clicks(page, *move)
    page.reload()
    page.wait_for_selector("[data-placed]")
    assert page.locator("[data-placed]").count() == 2
    page.click("#undo")
    assert page.locator("[data-placed]").count() == 1
    page.click("#redo")
    assert page.locator("[data-placed]").count() == 2
    page.locator("[data-placed]").first.click()  # taken back into the hand
    assert page.locator("[data-placed]").count() == 1 and page.locator(".tray-domino.held").count() == 1


def test_the_keyboard_alone_plays_a_puzzle_to_solved_and_back_to_the_board(page, made, tmp_path):
    easy = open_file(page, made, tmp_path, "easy")
    board = {tuple(c) for region in page.evaluate("game.regions") for c in region["cells"]}
    while not page.evaluate("document.activeElement.classList.contains('tray-domino')"):
        page.keyboard.press("Tab")
    for number, turns, anchor in moves(easy):
        free = page.evaluate("[...document.querySelectorAll('.tray-domino:not(.used)')].map(b => +b.dataset.tile)")
        for _ in range(free.index(number) - free.index(page.evaluate("+document.activeElement.dataset.tile"))):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        for _ in range(turns):
            page.keyboard.press("r")
        cursor = tuple(map(int, page.get_attribute("#board", "data-cursor").split(",")))
        for key in arrows(board, cursor, anchor):
            page.keyboard.press(key)
        page.keyboard.press("Enter")
    assert_solved(page)
    page.keyboard.press("Enter")  # on "Back to the board"
    assert page.is_hidden("#solved") and page.evaluate("document.activeElement.id") == "board"


def arrows(board, start, goal):
    """The arrow keys that take the page's cursor from `start` to `goal` (it jumps over gaps, as the page does)."""
    seen, queue = {start: []}, deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for key, (dr, dc) in ARROWS.items():
            there = next(((here[0] + dr * s, here[1] + dc * s) for s in range(1, 40)
                          if (here[0] + dr * s, here[1] + dc * s) in board), here)
            if there not in seen:
                seen[there] = [*seen[here], key]
                queue.append(there)
    raise AssertionError(f"{goal} cannot be reached from {start}")


def announced(page):
    """What the page's polite live regions hold, as Chromium's accessibility tree gives them to a screen reader."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    by_id = {node["nodeId"]: node for node in nodes}

    def text(node):
        if node["role"]["value"] == "StaticText":
            return node["name"]["value"]
        return "".join(text(by_id[child]) for child in node.get("childIds", []) if child in by_id)

    return [text(node) for node in nodes if any(property["name"] == "live" and property["value"]["value"] == "polite"
                                                for property in node.get("properties", []))]


def test_the_cursors_cell_is_announced_as_it_moves(page, made):
    """The board is one focus, a drawing: its cursor moved in silence for a screen reader. Now a live region
    says the cell (row and column from the board's top left), its region and rule, and what lies on it."""
    cells = {tuple(c): region["name"] for region in page.evaluate("game.regions") for c in region["cells"]}
    top, left = min(row for row, _ in cells), min(column for _, column in cells)

    def said(where, what):
        return f"Row {where[0] - top + 1}, column {where[1] - left + 1}, {cells[where]}: {what}."

    page.focus("#board")
    assert said(min(cells), "empty") in announced(page)
    number, turns, anchor = next(moves(made["easy"]))
    for key in arrows(set(cells), min(cells), anchor):
        page.keyboard.press(key)
    assert said(anchor, "empty") in announced(page)
    page.focus(f".tray-domino[data-tile='{number}']")
    page.keyboard.press("Enter")  # in hand, the cursor where it was
    for _ in range(turns):
        page.keyboard.press("r")
    domino = "-".join(map(str, made["easy"].puzzle.dominoes[number]))
    assert said(anchor, f"empty; the domino {domino} in hand fits here") in announced(page)
    page.keyboard.press("Enter")
    assert said(anchor, f"{domino.split('-')[0]} of the domino {domino}") in announced(page)
    page.keyboard.press("Enter")  # (the focus is on the tray's next domino) in hand, the cursor where it was
    for _ in range(turns):
        page.keyboard.press("r")
    other = "-".join(map(str, made["easy"].puzzle.dominoes[page.evaluate("hand.tile")]))
    placed = f"{domino.split('-')[0]} of the domino {domino}"
    assert said(anchor, f"{placed}; the domino {other} in hand would take its place") in announced(page)


def test_the_keyboards_first_stop_skips_the_chooser_to_the_board(page):
    """A new player with the keyboard alone met the chooser's ten stops (the day's month, day, year and calendar,
    the difficulty, Play, a file, the new puzzle's menus and Make) before the board. Now the first Tab shows a
    link past them, and Enter on it puts the board's cursor on its first cell, as Tab to the board does."""
    box = page.locator("#skip").bounding_box()
    assert box["y"] + box["height"] <= 0  # (above the screen until it has the focus)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip"
    box = page.locator("#skip").bounding_box()
    assert box["y"] >= 0 and box["x"] >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "board" and page.locator(".cursor").count() == 1
    assert page.evaluate("location.hash") == ""
    page.keyboard.press("Enter")  # (on to the tray, as How to play says)
    assert page.evaluate("document.activeElement.classList.contains('tray-domino')")


def test_enter_on_an_empty_cell_with_nothing_in_hand_goes_to_the_tray(page):
    """The board is the first Tab stop after the choices, before the tray, and Enter on it, with nothing to
    place, did nothing. Now it goes to the tray, where Enter takes a domino back to the board's cell."""
    page.focus("#board")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('tray-domino')")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "board" and page.locator(".tray-domino.held").count() == 1
    assert page.locator(".ghost").count() == 1


def test_the_page_fits_a_phone(tabs, url, made, tmp_path):
    page = opened(tabs["phone"], url)
    page.click("#chooser-toggle")
    medium = open_file(page, made, tmp_path)
    place_by_clicks(page, *next(moves(medium)))
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(tmp_path / "phone-390x844.png"), full_page=True)
    assert width <= 390  # nothing sticks out sideways


def test_a_long_title_leaves_the_header_on_a_phone_screen(tabs, url, made, tmp_path):
    """A long title without spaces (a file's name, or the path given to `serve`) pushed the header's Puzzles
    button off the side of a phone's screen, where it could not be tapped."""
    page = opened(tabs["phone"], url)
    page.click("#chooser-toggle")
    open_file(page, made, tmp_path, name="apuzzlewitharatherlongname_" * 2 + "medium.json")
    toggle = page.locator("#chooser-toggle").bounding_box()
    assert toggle["x"] + toggle["width"] <= 390 and page.evaluate("document.documentElement.scrollWidth") <= 390


def test_how_to_play_is_open_on_a_phones_screen_until_a_domino_is_placed(tabs, url, made):
    """On a phone the page's only instructions (how to place, turn and take back a domino) were hidden: a laptop's
    panel alone showed them. Now How to play is open for a new player on the screen, under the board, the tray
    and the buttons, and folded once a domino is placed, on a reload too."""
    page = opened(tabs["phone"], url)
    board, tray, how = (page.locator(selector).bounding_box() for selector in ("#board", "#tray", "#how-to-play"))
    assert page.is_visible("#how-to-play p:has-text('Turn')")
    assert board["y"] >= 0 and board["y"] + board["height"] <= tray["y"] < tray["y"] + tray["height"] <= how["y"] < 844
    place_by_clicks(page, *next(moves(made["easy"])), tapped=True)
    assert page.is_hidden("#how-to-play p") and page.is_visible("#how-to-play summary")
    page.reload()
    page.wait_for_selector("[data-placed]")
    assert page.is_hidden("#how-to-play p")
    page.tap("#how-to-play summary")  # open again on a tap
    assert page.is_visible("#how-to-play p:has-text('Turn')")


def test_how_to_play_closed_by_hand_stays_closed_after_a_reload(page):
    assert page.is_visible("#how-to-play p:has-text('Turn')")
    page.click("#how-to-play summary")
    assert page.is_hidden("#how-to-play p")
    page.reload()
    page.wait_for_selector("rect.cell")
    assert page.is_hidden("#how-to-play p")


def test_how_to_play_says_the_keys_on_a_laptop_not_on_a_phone(tabs, url):
    """How to play's keyboard line ("Keyboard: Tab to the dominoes ...") and Turn's (R) showed on a phone, which
    has no keys. Now they show where a keyboard is likely (a mouse's fine pointer that hovers), and the rest, the
    taps, everywhere."""
    for name, tab in tabs.items():
        page = opened(tab, url)
        keys = name == "laptop"
        assert page.is_visible("#how-to-play p:has-text('Tap or click')"), name
        assert page.is_visible("#how-to-play p:has-text('Keyboard')") == keys, name
        assert page.locator("#how-to-play kbd:visible").count() == (4 if keys else 0), name


def shown_whole(page, selector, text):
    """Whether every line of `text`, in the element `selector`, lies within that element's box and the screen's
    width (a clamped or clipped line lies outside them)."""
    return page.eval_on_selector(selector, """(element, text) => {
        const node = [...element.querySelectorAll("*"), element].flatMap((e) => [...e.childNodes])
            .find((child) => child.nodeType === Node.TEXT_NODE && child.data.includes(text));
        const range = document.createRange();
        range.setStart(node, node.data.indexOf(text));
        range.setEnd(node, node.data.indexOf(text) + text.length);
        const box = element.getBoundingClientRect(), lines = [...range.getClientRects()];
        return lines.length > 0 && lines.every((line) => line.top >= box.top && line.bottom <= box.bottom + 0.5
                                                && line.left >= 0 && line.right <= innerWidth);
    }""", text)


@pytest.mark.parametrize("name", ["made", "a long name"])
def test_a_made_puzzles_rating_is_whole_in_a_phones_header(tabs, url, made, name):
    """On a phone the title stood in a narrow column between "Pips" and the timer, cut to two lines: a made
    puzzle's "(rated medium; any difficulty asked)" was cut after "(rated". Now the title has a row of its own
    there, and a name too long for two lines is cut before its bracket is."""
    page = opened(tabs["phone"], url)
    game = made_view(generate(dominoes=6, seed=5))  # the medium puzzle of the day served, made anew, rated
    bracket = f"(rated {game['rating']}; any difficulty asked)"
    if name != "made":
        game["title"] = "apuzzlewitharatherlongname_" * 6 + "medium.json " + bracket
    page.evaluate("start", game)
    assert page.text_content("#title") == game["title"]
    assert shown_whole(page, "#title", bracket)
    toggle = page.locator("#chooser-toggle").bounding_box()
    assert toggle["x"] + toggle["width"] <= 390 and page.evaluate("document.documentElement.scrollWidth") <= 390


def stats_shown(page):
    """The stats beside the board once counted, name by name."""
    page.wait_for_selector(".stats dd:has-text('hint steps')")
    names, values = (page.locator(f".stats {tag}").all_text_contents() for tag in ("dt", "dd"))
    return dict(zip(names, values, strict=True))


def test_the_stats_say_what_they_count_and_whose_rating_it_is(page, made):
    """The stats said "Distinct grids", jargon to a player, and a day the NYT labels hard could say "Rating:
    medium" with no word on whose rating it was. Now they say different pip layouts, and pipscover's rating beside
    what the NYT says of a day's puzzle (a made puzzle's difficulty is no one's label: not said there)."""
    page.fill("#day", DAY)
    page.click("[data-difficulty=hard]")
    page.click("#play-day")
    page.wait_for_selector("#title:has-text('(hard)')")
    stats = stats_shown(page)
    assert list(stats) == ["Solutions", "Different pip layouts", "pipscover's rating"]
    assert stats["Solutions"] == stats["Different pip layouts"] == "1"
    assert stats["pipscover's rating"].endswith(" hint steps); the NYT says hard")
    page.evaluate("start", made_view(generate(dominoes=5, seed=3)))
    page.wait_for_selector(".stats dd.counting", state="detached")
    assert "NYT" not in stats_shown(page)["pipscover's rating"]


def test_a_new_puzzle_is_made_with_its_progress_shown_then_revealed(page):
    page.select_option("#make-size", "5")
    page.click("#make-button")
    page.wait_for_selector("#progress:not([hidden])")
    page.wait_for_selector("#progress", state="hidden", timeout=60_000)  # the day it opened on is replaced
    assert page.locator(".tray-domino").count() == 5 and page.text_content("#title") != f"{DAY} (easy)"
    page.click("#reveal-one")
    page.wait_for_selector("[data-placed]")
    assert page.locator("[data-placed]").count() == 1
    reveal_all(page)
    assert_revealed(page)


def test_a_new_puzzle_of_any_difficulty_is_titled_with_its_rating_and_moves_no_difficulty(page):
    """Made with "any difficulty", a puzzle was titled "(easy)" and moved the day's difficulty to Easy, from the
    generator's rating, as if the player had chosen easy."""
    page.click("[data-difficulty=hard]")
    page.select_option("#make-size", "5")
    page.click("#make-button")
    page.wait_for_selector("#title:has-text('any difficulty asked')", timeout=60_000)
    rated = page.evaluate("game.rating")
    assert page.text_content("#title").endswith(f" (rated {rated}; any difficulty asked)")
    assert page.get_attribute("[data-difficulty=hard]", "aria-checked") == "true"


def assert_revealed(page):
    """The board full and right by the server's help: said to be revealed, with no time, and kept from the
    solves (the saved game has no solve time)."""
    page.wait_for_selector(".message.good strong:text('Revealed')")
    assert page.text_content("#solved-title") == "Revealed" and " in " not in page.text_content("#solved-time")
    assert page.text_content("#timer") == "Revealed"
    assert page.evaluate("JSON.parse(localStorage.getItem(gameKey(game))).done") is None


def test_a_puzzle_finished_by_reveal_all_is_revealed_not_solved(page):
    """Reveal all ended in "Solved! ... in 0:09" and stopped the timer as for a solve, and the saved game kept
    that time as its solve's; a reload says the same."""
    reveal_all(page)
    assert_revealed(page)
    page.reload()
    page.wait_for_selector("[data-placed]")
    assert_revealed(page)


def test_reveal_all_asks_first_and_keep_playing_or_escape_leaves_the_board(page, made):
    """One click on Reveal all laid the answer over the player's board, and the game was no solve any more (which
    Undo does not mend). Now it asks first, under the buttons, with Keep playing in focus; that, or Escape,
    leaves the board as it was and the focus on Reveal all; the keyboard says yes with Tab and Enter."""
    place_by_clicks(page, *next(moves(made["easy"])))
    page.click("#reveal-all")
    assert page.is_visible("#message.warning strong:text('Reveal all?')")
    assert page.evaluate("document.activeElement.id") == "reveal-all-no"
    page.keyboard.press("Enter")  # Keep playing
    assert page.text_content("#message") == "" and page.evaluate("document.activeElement.id") == "reveal-all"
    page.keyboard.press("Enter")  # asked again, from the keyboard
    assert page.is_visible("#reveal-all-no")
    page.keyboard.press("Escape")
    assert page.text_content("#message") == "" and page.evaluate("document.activeElement.id") == "reveal-all"
    page.wait_for_timeout(300)  # (a reveal's answer would have come)
    assert page.locator("[data-placed]").count() == 1 and page.evaluate("revealed") == 0
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # to the question's Reveal all
    page.keyboard.press("Enter")
    assert_revealed(page)


def test_the_empty_tray_goes_once_every_domino_is_placed(tabs, url):
    """After a solve or Reveal all an empty tray stayed beside (a laptop) or under (a phone) the finished board.
    Now it goes, the board staying as it was; a domino taken back brings it again, in hand."""
    for name, tab in tabs.items():
        page, tapped = opened(tab, url), name == "phone"
        board = page.locator("#board").bounding_box()
        reveal_all(page, tapped)
        assert_revealed(page)
        press(page.locator("#solved-close"), tapped)
        assert page.is_hidden("#tray") and page.locator("#board").bounding_box() == board, name
        press(page.locator("[data-placed]").first, tapped)
        assert page.is_visible("#tray .tray-domino.held"), name


def test_a_revealed_games_timer_stays_revealed_when_a_domino_is_taken_back(page):
    """Taken back after Reveal all, a domino brought the time back to the timer, which had counted on under
    "Revealed"; and a reload said the time too."""
    reveal_all(page)
    assert_revealed(page)
    page.click("#solved-close")
    page.locator("[data-placed]").first.click()
    page.clock.fast_forward(2_000)  # the timer's ticks run
    assert page.text_content("#timer") == "Revealed"
    page.reload()
    page.wait_for_selector("[data-placed]")
    assert page.text_content("#timer") == "Revealed"


def test_a_solved_screen_once_closed_stays_closed_after_a_reload(page, made):
    """A reload showed the solved screen again, each time: its closing was not saved. A domino taken back and
    laid again finishes the board anew, and the screen shows again."""
    moved = list(moves(made["easy"]))
    for move in moved:
        place_by_clicks(page, *move)
    assert_solved(page)
    page.click("#solved-close")
    page.reload()
    assert_solved(page)
    assert page.is_hidden("#solved")
    page.locator("[data-placed]").last.click()  # taken back into the hand
    cell(page, moved[-1][2]).click()
    page.wait_for_selector("#solved:not([hidden])")


def taps_in_one_place(page, selector, times, then=lambda done: None):
    """`times` taps where `selector` was before the first, as a thumb does; `then(n)` after the n-th."""
    box = page.locator(selector).bounding_box()
    for done in range(1, times + 1):
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        then(done)


def test_taps_on_turn_in_one_place_turn_the_domino_on_a_phone(tabs, url):
    """On a phone the domino in hand, upright in the tray, made its row taller: the buttons under the tray moved by
    more than their own height, and the second tap on Turn missed it. Now the tray keeps its size as it turns."""
    page = opened(tabs["phone"], url)
    tile(page, 0).tap()
    turns = []
    taps_in_one_place(page, "#turn", 4, lambda done: turns.append(page.evaluate("hand && hand.turn")))
    assert turns == [1, 2, 3, 0]


TOOL_GROUPS = [["turn", "put-back"], ["undo", "redo", "clear"], ["hint", "check"], ["reveal-one", "reveal-all"]]


@pytest.mark.parametrize(("screen", "size"), [("laptop", (1280, 800)), ("laptop", (1366, 768)),
                                              ("phone", (390, 844)), ("phone", (360, 740)), ("phone", (1024, 768))])
def test_the_panels_buttons_go_to_a_new_row_by_group(tabs, url, tmp_path, screen, size):
    """Beside a laptop's board the panel is 300 pixels wide, and Play's five buttons, which need about 385, wrapped
    wherever the row ran out: Redo and Clear under Turn, away from Undo, and Reveal all alone under Hint. Now each
    group (the domino in hand; the moves; asking; the answer) stays in one row, in the panel, and the board keeps
    its size: a 16-domino board's cells as large as a player needs."""
    page = tabs[screen]
    page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    try:
        opened(page, url)
        panel = page.locator(".panel").bounding_box()
        for group in TOOL_GROUPS:
            boxes = [page.locator(f"#{name}").bounding_box() for name in group]
            assert len({box["y"] for box in boxes}) == 1, group
            assert panel["x"] <= boxes[0]["x"] and boxes[-1]["x"] + boxes[-1]["width"] <= panel["x"] + panel["width"]
        open_on_any_screen(page, sixteen(tmp_path))
        assert cell(page, (0, 0)).bounding_box()["width"] > (45 if screen == "laptop" else 35)
    finally:
        page.set_viewport_size(SCREENS[screen]["viewport"])


def test_a_domino_in_hand_is_put_back_in_the_tray_on_a_phone(tabs, url):
    """On a phone, without Escape, a domino in hand could only be placed, or another taken. Now Put back, beside
    Turn, returns it to the tray, one taken from the board too; it is off while nothing is in hand."""
    page = opened(tabs["phone"], url)
    assert page.is_visible("#put-back") and page.is_disabled("#put-back")
    rows = {page.locator(f"#{name}").bounding_box()["y"] for name in ("turn", "put-back", "clear")}
    assert len(rows) == 1  # Play's buttons in one row, as before
    tile(page, 0).tap()
    assert page.locator(".tray-domino.held").count() == 1
    page.tap("#put-back")
    assert page.locator(".tray-domino.held").count() == 0 and page.evaluate("hand") is None
    assert page.is_disabled("#put-back")
    page.tap("#reveal-one")
    page.wait_for_selector("[data-placed]")
    page.locator("[data-placed]").first.tap()  # taken back into the hand
    page.tap("#put-back")
    assert page.locator("[data-placed]").count() == 0 and page.locator(".tray-domino.held").count() == 0


def test_clear_is_off_while_the_board_is_empty(tabs, url, made):
    """Clear stood ready on an empty board, as if a tap would do something (Undo and Redo beside it were off)."""
    page = opened(tabs["phone"], url)
    assert page.is_disabled("#clear")
    place_by_clicks(page, *next(moves(made["easy"])), tapped=True)
    page.tap("#clear")
    assert page.locator("[data-placed]").count() == 0 and page.is_disabled("#clear")
    page.tap("#undo")
    assert page.locator("[data-placed]").count() == 1 and page.is_enabled("#clear")


def test_taps_on_reveal_one_and_undo_in_one_place_each_lay_or_take_back_a_domino_on_a_phone(tabs, url):
    """A domino laid left the tray, whose rows closed up, and a domino taken back opened a row: the buttons under
    the tray moved by a row's height, and the next tap in the same place missed (or took up a domino from the
    tray). Now a laid domino's place in the tray is kept, empty, and nothing under it moves."""
    page = opened(tabs["phone"], url)
    taps_in_one_place(page, "#reveal-one", 4, lambda done: page.wait_for_selector(f"[data-placed='{done - 1}']"))
    taps_in_one_place(page, "#undo", 4)
    assert page.locator("[data-placed]").count() == 0 and page.evaluate("hand") is None


def test_a_domino_turned_twice_or_three_times_lies_where_it_is_tapped_on_a_phone(tabs, url, made, tmp_path):
    """Turned twice or three times a domino was laid by its first half, by then its right (bottom) one: a tap laid
    it a cell left of (above) the cell tapped, or said it did not fit, and a phone shows no preview before the tap.
    Now the cell tapped takes its left (top) half as the tray draws it: a puzzle whose tray lists the dominoes
    the other way round (all but the doubles turned twice or three times) is played to solved by taps."""
    easy = made["easy"]
    turned = replace(easy, puzzle=replace(easy.puzzle, dominoes=tuple((b, a) for a, b in easy.puzzle.dominoes)))
    path = tmp_path / "turned.json"
    path.write_text(json.dumps(puzzle_to_nyt(turned.puzzle)))
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, path)
    assert {turns for _, turns, _ in moves(turned)} >= {2, 3}
    for move in moves(turned):
        place_by_clicks(page, *move, tapped=True)
        number, _, anchor = move
        assert page.evaluate("placed.at(-1).tile") == number
        assert sorted(map(tuple, page.evaluate("placed.at(-1).cells"))) == [anchor, move_other(move)]
    assert_solved(page)


def test_a_tap_on_the_board_with_nothing_in_hand_says_to_take_a_domino_first(tabs, url, made):
    """A new player's first tap on the board, before any domino was taken from the tray, did nothing at all."""
    page = opened(tabs["phone"], url)
    cell(page, next(moves(made["easy"]))[2]).tap()
    assert "take a domino from the tray" in page.text_content("#message.warning")
    assert page.locator("[data-placed]").count() == 0 and page.locator("#message").bounding_box()["y"] < 844


TABLETS = [(768, 1024), (1024, 768)]


@pytest.mark.parametrize(("size", "difficulty"), list(zip(TABLETS, ["medium", "hard"], strict=True)))
def test_a_puzzle_is_played_to_solved_by_taps_on_a_tablet(tabs, url, made, tmp_path, size, difficulty):
    """A tablet upright (768 x 1024) and on its side (1024 x 768), by touch alone: the phone's layout and the
    laptop's, each with the fixes its play through needed (the tests after this one)."""
    page = tabs["phone"]
    page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    try:
        if opened(page, url).is_visible("#chooser-toggle"):
            page.tap("#chooser-toggle")
        open_file(page, made, tmp_path, difficulty)
        for move in moves(made[difficulty]):
            place_by_clicks(page, *move, tapped=True)
        assert_solved(page)
        page.wait_for_selector("#solved:not([hidden])")
    finally:
        page.set_viewport_size(SCREENS["phone"]["viewport"])


@pytest.mark.parametrize("size", TABLETS)
def test_a_domino_taken_by_a_tap_is_drawn_on_no_cell_before_one_is_tapped_on_a_tablet(tabs, url, made, size):
    """A touch screen has no hover, and the domino in hand was drawn on the cell tapped last: the next one taken from
    the tray lay over the domino just placed there, in red, as if the player had tried it there; one taken up from
    the board lay on the cell of an earlier tap. Now a domino newly in hand is drawn only where it is tried."""
    page = tabs["phone"]
    page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    try:
        opened(page, url)
        first, second = list(moves(made["easy"]))[:2]
        place_by_clicks(page, *first, tapped=True)
        tile(page, second[0]).tap()
        assert page.locator(".ghost").count() == 0 and page.locator(".domino.replaced").count() == 0
        page.tap("#put-back")
        page.locator("[data-placed]").tap()  # taken back into the hand
        assert page.evaluate("hand") is not None and page.locator(".ghost").count() == 0
    finally:
        page.set_viewport_size(SCREENS["phone"]["viewport"])


@pytest.mark.parametrize("size", TABLETS)
def test_a_domino_turned_where_it_did_not_fit_is_said_to_fit_and_placed_by_a_tap_on_it_on_a_tablet(
        tabs, url, tmp_path, size):
    """Tried on the board's last column, a domino did not fit; turned upright, it was drawn there, fitting, and looked
    placed, under "It does not fit there"; a tap on its lower half laid it a cell lower. Now it is said to fit, and a
    tap on either half lays it where it is drawn."""
    page = tabs["phone"]
    page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
    try:
        open_on_any_screen(opened(page, url), sixteen(tmp_path))
        tile(page, 0).tap()
        cell(page, (0, 7)).tap()
        assert page.locator(".misfit").count() == 1 and "does not fit" in page.text_content("#message.warning")
        page.tap("#turn")
        assert page.locator(".misfit").count() == 0 and "It fits there now" in page.text_content("#message")
        cell(page, (1, 7)).tap()  # its lower half
        assert page.evaluate("placed.map((p) => p.cells)") == [[[0, 7], [1, 7]]]
        assert page.text_content("#message") == ""
    finally:
        page.set_viewport_size(SCREENS["phone"]["viewport"])


def test_a_domino_that_does_not_fit_says_how_to_turn_it_on_a_phone(tabs, url):
    """It said "Turn it with R", and a phone has no R key."""
    page = opened(tabs["phone"], url)
    rightmost = max((tuple(c) for region in page.evaluate("game.regions") for c in region["cells"]),
                    key=lambda where: where[1])
    tile(page, 0).tap()
    cell(page, rightmost).tap()  # its second half, to the right, would lie off the board
    assert "Turn it with Turn" in page.text_content("#message.warning")


@pytest.mark.parametrize("row", [0, 7])
def test_a_domino_tapped_where_it_does_not_fit_is_shown_there_in_red(tabs, url, tmp_path, row):
    """On a phone under a tall board (8 x 4) a tap where the domino in hand does not fit seemed to do nothing: a
    tap has no hover to show it in red before, and the warning was below the screen's bottom edge. Now it is
    drawn in red where it was tried, on the screen with the warning where both fit (the last row), else first."""
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, sixteen(tmp_path, 8))
    tile(page, 0).tap()
    cell(page, (row, 3)).tap()  # its second half, to the right, would lie off the board
    assert page.locator(".misfit").count() == 1 and "Turn it with Turn" in page.text_content("#message.warning")
    tried, message = page.locator(".misfit").bounding_box(), page.locator("#message").bounding_box()
    assert tried["y"] >= 0 and tried["y"] + tried["height"] <= 844
    assert (message["y"] >= 0 and message["y"] + message["height"] <= 844) == (row == 7)


def test_a_domino_in_hand_hovered_at_the_boards_edge_is_drawn_whole_past_it(page, tmp_path):
    """Hovered on the last column, the domino in hand, its second half off the board, was drawn in red cut off at the
    drawing's edge: half a domino, which read as one that fits. Now it is drawn whole, past the board's edge and
    over the tray beside it: its far end is what is on top there."""
    open_on_any_screen(page, sixteen(tmp_path))
    tile(page, 0).click()
    cell(page, (1, 7)).hover()
    tried, drawing = page.locator(".misfit").bounding_box(), page.locator(".board-svg").bounding_box()
    beyond = drawing["x"] + drawing["width"]
    assert tried["x"] + tried["width"] > beyond + 20
    page.eval_on_selector(".misfit", "(ghost) => { ghost.style.pointerEvents = 'auto'; }")
    on_top = page.evaluate("([x, y]) => Boolean(document.elementFromPoint(x, y).closest('.misfit'))",
                           [(beyond + tried["x"] + tried["width"]) / 2, tried["y"] + tried["height"] / 2])
    assert on_top


def test_a_board_filled_wrong_on_a_phone_shows_its_message_with_the_wrong_domino(tabs, url, tmp_path):
    """Under a tall board (8 x 4) the last domino, laid the wrong way round, was boxed in red, and the message
    that says why at the screen's bottom edge: the Check button brought its answer onto the screen, the check
    of a board as it was filled did not."""
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, sixteen(tmp_path, 8))
    dominoes = page.evaluate("game.dominoes")  # (laid in reading order, two a row: every cell's sum is its pip)
    page.evaluate("(found) => { applyPlacements(found); changed(); }",
                  [{"domino": domino, "cells": [[n // 2, 2 * (n % 2)], [n // 2, 2 * (n % 2) + 1]]}
                   for n, domino in enumerate(dominoes[:-1])])
    tile(page, len(dominoes) - 1).tap()
    page.tap("#turn")
    page.tap("#turn")  # the pips the wrong way round
    cell(page, (7, 2)).tap()  # (its left half as turned)
    page.wait_for_selector(".message.bad strong:text('Wrong')")
    for box in [page.locator(".wrong-cell").first.bounding_box(), page.locator("#message").bounding_box()]:
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_tab_stays_in_the_solved_screen_and_escape_closes_it(page):
    """Tab went from the solved screen's button to the page behind it (a modal dialog), on to the day's input,
    where Escape did not close the screen. Now it goes round the screen's two buttons."""
    reveal_all(page)
    page.wait_for_selector("#solved:not([hidden])")
    for key, focused in [("Tab", "solved-next"), ("Tab", "solved-close"), ("Shift+Tab", "solved-next")]:
        page.keyboard.press(key)
        assert page.evaluate("document.activeElement.id") == focused
    page.keyboard.press("Escape")
    assert page.is_hidden("#solved") and page.evaluate("document.activeElement.id") == "board"


def test_the_solved_screen_goes_on_to_the_days_next_puzzle_then_to_another_day(browser, made, tmp_path):
    """The solved (or revealed) screen offered only "Back to the board". Now it goes on as the day's choices
    load a puzzle: to the day's next difficulty, after its hardest to the nearest later day in the cache (easy),
    else to the nearest earlier one; a file's puzzle, no cached day's, has no way on."""
    later = "2025-01-05"
    cache = tmp_path / "cache"
    cache.mkdir()
    write_day(cache, made)
    # (the later day's puzzles the day's, moved round: a puzzle's position is kept by the puzzle, not the day)
    write_day(cache, {"easy": made["medium"], "medium": made["hard"], "hard": made["easy"]}, later)
    process, address = start_server(cache, "http://127.0.0.1:9")  # (nothing is fetched)
    context = browser.new_context(**SCREENS["laptop"])
    try:
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        tab.goto(address)
        tab.wait_for_selector(f"#title:text('{later} (easy)')")  # the newest day
        for day, difficulty, then in [(later, "easy", f"{later} (medium)"), (later, "hard", f"{DAY} (easy)"),
                                      (DAY, "hard", f"{later} (easy)")]:
            tab.fill("#day", day)
            tab.click(f"[data-difficulty={difficulty}]")
            tab.click("#play-day")
            tab.wait_for_selector(f"#title:text('{day} ({difficulty})')")
            reveal_all(tab)
            tab.wait_for_selector("#solved:not([hidden])")
            assert tab.text_content("#solved-next") == f"Play {then}"
            tab.keyboard.press("Escape")  # back to the board, whose chooser is behind the screen
        tab.keyboard.press("Control+Z")  # (the board before Reveal all, whose next one finishes it anew)
        reveal_all(tab)
        tab.wait_for_selector("#solved-next:focus-visible, #solved-close:focus")
        tab.keyboard.press("Tab")  # from Back to the board to the way on
        tab.keyboard.press("Enter")
        tab.wait_for_selector(f"#title:text('{later} (easy)')")
        assert tab.is_hidden("#solved") and tab.get_attribute("[data-difficulty=easy]", "aria-checked") == "true"
        assert tab.evaluate("document.activeElement.id") == "board"  # the keyboard's play goes on there
        tab.keyboard.press("ArrowRight")
        assert tab.get_attribute("#board", "data-cursor")
        path = tmp_path / "a file.json"  # (a puzzle of its own: the day's are kept played)
        path.write_text(json.dumps(puzzle_to_nyt(generate(dominoes=4, seed=4).puzzle)))
        open_on_any_screen(tab, path)
        reveal_all(tab)
        tab.wait_for_selector("#solved:not([hidden])")
        assert tab.is_hidden("#solved-next")
    finally:
        context.close()
        stop_server(process)


def test_a_solved_screen_shown_before_the_days_list_gets_its_way_on_when_the_list_comes(browser, url):
    """A finished board, reloaded, shows its solved screen again, and the way on to the next puzzle comes from the
    days' list: when the server answered the list after the board's check, the screen had none, and stayed so.
    Now the way on appears when the list comes (the server's answer held back by a server in front of it)."""
    context = browser.new_context(**SCREENS["laptop"])
    try:
        with slowed(url, "/api/days") as (address, released):
            tab = context.new_page()
            tab.set_default_timeout(10_000)
            opened(tab, address)
            reveal_all(tab)
            tab.wait_for_selector(f"#solved-next:text('Play {DAY} (medium)')")
            released.clear()
            tab.reload()
            tab.wait_for_selector("#solved:not([hidden])")
            assert tab.is_hidden("#solved-next")  # (the list not come yet)
            released.set()
            tab.wait_for_selector(f"#solved-next:text('Play {DAY} (medium)')")
            tab.keyboard.press("Tab")  # from Back to the board to the way on
            assert tab.evaluate("document.activeElement.id") == "solved-next"
    finally:
        context.close()


def test_a_finished_boards_way_on_stays_under_solved_once_its_screen_is_closed(page, made, tmp_path):
    """Played to the end by a new player, the solved screen offered the next puzzle; closed to look at the board,
    it took the way on with it: "Solved! Every region holds." and no way on but the chooser at the top. Now the
    way on stays under it, for the mouse and the keyboard (Tab from the board); a file's puzzle has none."""
    for move in moves(made["easy"]):
        place_by_clicks(page, *move)
    assert_solved(page)
    page.click("#solved-close")
    page.click(f"#message .next-puzzle:text('Play {DAY} (medium)')")
    page.wait_for_selector(f"#title:text('{DAY} (medium)')")
    reveal_all(page)
    page.wait_for_selector("#solved:not([hidden])")
    page.keyboard.press("Escape")  # on the board, whose tray is gone
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('next-puzzle')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#title:text('{DAY} (hard)')")
    open_file(page, made, tmp_path, "easy")  # (a file's puzzle: the day's easy one, played already)
    assert_solved(page)
    assert page.locator(".next-puzzle:visible").count() == 0


def test_the_solved_screens_card_keeps_off_a_phones_edges(tabs, url):
    """With its way on beside Back to the board, the card grew to the phone's whole width, its round corners cut
    by the screen's edges. Now it keeps a margin, both buttons on the screen."""
    page = opened(tabs["phone"], url)
    reveal_all(page, tapped=True)
    page.wait_for_selector("#solved-next:visible")
    page.wait_for_timeout(400)  # (its pop, 0.35 s, ends)
    card = page.locator(".solved-card").bounding_box()
    assert card["x"] >= 12 and card["x"] + card["width"] <= 390 - 12
    for button in ("#solved-close", "#solved-next"):
        box = page.locator(button).bounding_box()
        assert card["x"] < box["x"] and box["x"] + box["width"] < card["x"] + card["width"], button


def test_the_keyboards_cursor_is_drawn_for_the_keyboard_not_after_a_tap(tabs, url):
    """"Back to the board", tapped, gives the board the focus (for the keyboard's next key), and the board drew
    the keyboard's cursor, a purple box, on a cell nobody had gone to: now only once a key is pressed."""
    page = opened(tabs["phone"], url)
    reveal_all(page, tapped=True)
    page.wait_for_selector("#solved:not([hidden])")
    page.tap("#solved-close")
    assert page.evaluate("document.activeElement.id") == "board" and page.locator(".cursor").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator(".cursor").count() == 1


def test_the_boards_keys_do_nothing_behind_the_solved_screen(page):
    """H asked for a hint and Ctrl+Z took a domino back behind the (modal) solved screen."""
    reveal_all(page)
    page.wait_for_selector("#solved:not([hidden])")
    said = page.text_content("#message")
    for key in ("h", "Control+z", "r"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)  # (a hint's answer would have come)
    assert page.is_visible("#solved") and page.locator("[data-placed]").count() == 5
    assert page.text_content("#message") == said


def test_what_was_said_of_the_full_board_goes_when_it_is_cleared(page):
    """Cleared after a reveal, the board was empty under "Revealed: 5 of 5 dominoes were revealed" (or, after a
    hint, "Every domino is placed")."""
    reveal_all(page)
    assert_revealed(page)
    page.click("#solved-close")
    page.click("#hint")
    page.wait_for_selector("#message:has-text('Every domino is placed')")
    page.click("#clear")
    assert page.locator("[data-placed]").count() == 0 and page.text_content("#message") == ""


def test_a_puzzle_finished_after_one_domino_revealed_is_not_a_solve(page, made):
    """The one domino revealed is taken back and laid again by the player: it was seen, all the same."""
    page.click("#reveal-one")
    page.wait_for_selector("[data-placed]")
    page.click("#undo")
    for move in moves(made["easy"]):
        place_by_clicks(page, *move)
    assert_revealed(page)
    assert "1 of 5 dominoes were revealed" in page.text_content("#message")


def screenshots(tabs, url, tmp_path, name, act):
    """`act(page)` at 1280x800 and at 390x844 (touch), each then photographed; the pages, for more checks."""
    pages = []
    for tab in tabs.values():
        page = opened(tab, url)
        act(page)
        size = page.viewport_size
        page.screenshot(path=str(tmp_path / f"{name}-{size['width']}x{size['height']}.png"))
        pages.append(page)
    return pages


def test_the_page_opens_on_the_newest_day_then_on_the_last_position(tabs, url, made, tmp_path):
    def act(page):
        assert page.text_content("#title") == f"{DAY} (easy)" and page.locator(".tray-domino").count() == 5
        place_by_clicks(page, *next(moves(made["easy"])))
        page.reload()
        page.wait_for_selector("[data-placed]")

    for page in screenshots(tabs, url, tmp_path, "opened", act):
        assert page.locator("[data-placed]").count() == 1


def test_after_a_reload_the_difficulty_shown_is_the_puzzles(page, made):
    page.evaluate(f"api('/api/day/{DAY}/hard').then(start)")
    page.wait_for_selector("#title:has-text('(hard)')")
    page.reload()
    page.wait_for_selector("rect.cell")
    assert page.get_attribute("[data-difficulty=hard]", "aria-checked") == "true"
    assert page.get_attribute("[data-difficulty=easy]", "aria-checked") == "false"


def test_after_a_reload_of_a_made_puzzle_the_difficulty_chosen_is_kept(page, made):
    """A made puzzle chooses no difficulty of the day's, and a reload showed Easy chosen, whatever was before."""
    page.click("[data-difficulty=medium]")
    page.click("[data-difficulty=hard]")
    game = made_view(generate(dominoes=6, seed=5))
    page.evaluate("start", game)
    page.reload()
    page.wait_for_selector("rect.cell")
    assert page.text_content("#title") == game["title"]
    assert page.get_attribute("[data-difficulty=hard]", "aria-checked") == "true"
    assert page.get_attribute("[data-difficulty=easy]", "aria-checked") == "false"
    assert page.evaluate("difficulty") == "hard"


def test_after_a_reload_of_a_made_puzzle_its_menus_show_what_was_chosen(page):
    """The page came back with the made puzzle and its menus at 8 dominoes and any difficulty, whatever was
    chosen."""
    page.select_option("#make-size", "5")
    page.select_option("#make-difficulty", "easy")
    page.click("#make-button")
    page.wait_for_selector("#title:has-text('as asked')", timeout=60_000)
    page.reload()
    page.wait_for_selector("rect.cell")
    assert page.text_content("#title").endswith("(rated easy, as asked)")
    assert page.input_value("#make-size") == "5" and page.input_value("#make-difficulty") == "easy"


def test_the_difficulties_are_one_tab_stop_and_the_arrow_keys_choose_among_them(page):
    """The difficulties are marked as a radio group, and now behave as one (WAI-ARIA's pattern): Tab reaches
    the chosen one only, the arrow keys move the choice and the focus, round the ends, and the next Tab leaves
    the group. The arrows did nothing, and Tab stopped on every difficulty."""
    page.focus("#play-day")
    page.keyboard.press("Shift+Tab")
    chosen = "[document.activeElement.dataset.difficulty, difficulty]"
    assert page.evaluate(chosen) == ["easy", "easy"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(chosen) == ["medium", "medium"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # past the last, the first
    assert page.evaluate(chosen) == ["easy", "easy"]
    page.keyboard.press("ArrowLeft")  # before the first, the last
    assert page.evaluate(chosen) == ["hard", "hard"]
    assert page.get_attribute("[data-difficulty=hard]", "aria-checked") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "play-day"
    page.keyboard.press("Shift+Tab")  # back to the chosen one
    assert page.evaluate(chosen) == ["hard", "hard"]


def test_the_tray_is_one_tab_stop_and_the_arrow_keys_go_from_domino_to_domino(page):
    """The tray is marked as a listbox of dominoes, and now behaves as one: Tab stopped on every domino (five
    on the easy day, sixteen on a large board) and the arrows did nothing."""
    page.focus("#board")
    page.keyboard.press("Tab")
    at = "+document.activeElement.dataset.tile"
    assert page.evaluate(at) == 0
    page.keyboard.press("ArrowRight")
    assert page.evaluate(at) == 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # before the first, the last
    assert page.evaluate(at) == 4
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hint"  # (Play's buttons are off on an empty board)
    page.keyboard.press("Shift+Tab")  # back to the domino the arrows went to
    assert page.evaluate(at) == 4


@pytest.mark.parametrize(("screen", "keys"), [
    # two columns beside the board: 0 1 / 2 3 / 4
    ("laptop", [("ArrowDown", 2), ("ArrowRight", 3), ("ArrowUp", 1), ("ArrowDown", 3), ("ArrowDown", 4),
                ("ArrowDown", 4), ("ArrowLeft", 3)]),
    # as many as fit under it, each row centred: 0 1 2 / 3 4
    ("phone", [("ArrowDown", 3), ("ArrowRight", 4), ("ArrowDown", 4), ("ArrowRight", 0), ("ArrowRight", 1),
               ("ArrowRight", 2), ("ArrowDown", 4)]),
])
def test_up_and_down_go_by_a_row_of_the_tray_as_it_is_laid_out(tabs, url, screen, keys):
    """Up and Down went to the domino before or after in the tray's order, across a row of two columns."""
    page = opened(tabs[screen], url)
    page.focus(".tray-domino[data-tile='0']")
    for key, then in keys:
        page.keyboard.press(key)
        assert page.evaluate("+document.activeElement.dataset.tile") == then, f"after {key}"
    assert page.evaluate("scrollY") == 0


def test_a_day_file_opens_at_the_difficulty_chosen_and_a_file_of_one_puzzle_as_it_is(page, made, tmp_path):
    """The page's difficulty picks among a day file's puzzles; a file of one opens whatever is chosen."""
    day = tmp_path / "day.json"
    day.write_text(json.dumps({"printDate": DAY, **{d: puzzle_to_nyt(m.puzzle) for d, m in made.items()}}))
    page.click("[data-difficulty=hard]")
    page.set_input_files("#file", str(day))
    page.wait_for_selector("#title:has-text('(hard)')")
    assert page.locator(".tray-domino").count() == len(made["hard"].puzzle.dominoes)
    open_file(page, made, tmp_path, "easy")  # while hard is still chosen


def test_before_any_game_the_page_says_what_to_do_and_why_a_day_failed(browser, tmp_path):
    """With no day in the cache (a first run), the page was blank under its chooser: its messages went to the
    panel of a game not yet shown, so a day that could not be fetched did nothing a user could see."""
    process, address = start_server(tmp_path, "http://127.0.0.1:9")  # the discard port: nothing listens
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(address)
        tab.wait_for_selector("#notice:has-text('Pick a day to fetch')")
        tab.fill("#day", "2025-09-15")
        tab.click("#play-day")
        tab.wait_for_selector("#notice.bad:has-text('cannot reach http://127.0.0.1:9')")
    finally:
        context.close()
        stop_server(process)


def test_a_question_to_a_stopped_server_says_so_in_a_sentence(browser, made, tmp_path):
    """The server stopped under an open page: a hint said only the browser's "Failed to fetch"."""
    process, address = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(address)
        open_file(tab, made, tmp_path)
        stop_server(process)
        tab.click("#hint")
        tab.wait_for_selector("#message.bad:has-text('The server cannot be reached')")
    finally:
        context.close()
        stop_server(process)


def test_the_keyboard_on_open_a_file_is_shown(page):
    """Tab reached the file picker's hidden input and nothing on the page showed it: its label's outline asked
    for a focus inside the label, which the input never was."""
    page.focus("#play-day")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "file"
    assert page.eval_on_selector("label[for=file]", "label => getComputedStyle(label).outlineStyle") == "solid"


def test_the_keyboard_on_the_days_calendar_button_is_shown(page):
    """Tab after the day's year reaches the date input's calendar button, and nothing on the page showed it: the
    outline asked for the input's :focus-visible, which the input is not while the button inside it has the
    focus (only :focus-within)."""
    page.focus("#day")
    for _ in range(3):  # from the month to the day, the year, then the calendar button
        page.keyboard.press("Tab")
    assert page.evaluate("[document.activeElement.id, document.activeElement.matches(':focus')]") == ["day", False]
    assert page.eval_on_selector("#day", "day => getComputedStyle(day).outlineStyle") == "solid"


def test_escape_drops_the_domino_in_hand_after_a_click(page):
    tile(page, 0).click()
    assert page.locator(".tray-domino.held").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".tray-domino.held").count() == 0


def test_on_a_phone_puzzles_opens_after_any_number_of_taps_on_a_difficulty(tabs, url):
    page = opened(tabs["phone"], url)
    for taps in range(1, 4):
        page.tap("#chooser-toggle")
        assert page.is_visible("#pick-day")
        for _ in range(taps):
            page.tap("[data-difficulty=medium]")
        page.tap("#chooser-toggle")
        assert not page.is_visible("#pick-day"), f"after {taps} taps"


def test_a_reveal_answered_after_the_board_changed_lays_nothing_over_it(page, made, tmp_path):
    """While the reveal of the next domino (the one on the first cell) is answered, the player lays another
    domino on its two cells: the revealed domino was laid over it, two dominoes on the same cells. Now the page
    says the board changed and leaves it as the player made it."""
    medium = open_file(page, made, tmp_path)
    revealed = min(moves(medium), key=lambda move: move[2])  # (its left (top) half's cell, the first of its two)
    other = next(number for number, _, _ in moves(medium)
                 if sorted(medium.puzzle.dominoes[number]) != sorted(medium.puzzle.dominoes[revealed[0]]))
    page.evaluate("""([number, turns, anchor]) => {
        const reveal = document.getElementById("reveal-one");
        reveal.click();  // answered once this script has placed the domino
        take(number);
        for (let turn = 0; turn < turns; turn++) turnHand();
        place(anchor);
        return new Promise((answered) => {  // the button is enabled again when the answer has been shown
            const wait = () => (reveal.disabled ? setTimeout(wait, 20) : answered());
            wait();
        });
    }""", [other, revealed[1], list(revealed[2])])
    assert page.locator("[data-placed]").count() == 1
    assert "The board changed" in page.text_content("#message")


def test_the_wrong_box_goes_when_its_domino_is_taken_back(page, made, tmp_path):
    medium = open_file(page, made, tmp_path)
    number, turns, anchor = next(m for m in moves(medium) if len(set(medium.puzzle.dominoes[m[0]])) == 2)
    place_by_clicks(page, number, (turns + 2) % 4, anchor)
    page.click("#check")
    page.wait_for_selector(".message.bad")
    page.locator("[data-placed]").first.click()
    assert page.locator(".message.bad").count() == 0 and page.locator(".wrong-cell").count() == 0


def test_a_timer_runs_and_a_solved_screen_says_the_time(tabs, url, made, tmp_path):
    """The page's clock is stopped 65 s after the puzzle opened: the timer's tick shows 1:05, the solved screen
    says so, and a minute later the timer still says it."""
    def act(page):
        opened_at = page.evaluate("clock.since") / 1000  # (Playwright's clock takes seconds)
        page.clock.pause_at(opened_at + 65.5)  # the timer's ticks that are due run
        try:
            assert page.text_content("#timer") == "1:05"
            for move in moves(made["easy"]):
                place_by_clicks(page, *move)
            page.wait_for_selector("#solved:not([hidden])")
            assert page.text_content("#solved-time") == f"{DAY} (easy) in 1:05"
            page.click("#solved-close")
            page.clock.fast_forward(60_000)  # a minute later, its ticks run
            assert page.is_hidden("#solved") and page.text_content("#timer") == "1:05"
        finally:
            page.clock.resume()

    screenshots(tabs, url, tmp_path, "solved", act)


def test_a_regions_cells_meet_edge_to_edge(page):
    boxes = {}
    for region, cells in enumerate(page.evaluate("game.regions.map((r) => r.cells)")):
        for where in cells:
            boxes[tuple(where)] = (region, cell(page, where).bounding_box())
    touching = 0
    for (row, column), (region, box) in boxes.items():
        right = boxes.get((row, column + 1))
        if right and right[0] == region:
            assert abs(box["x"] + box["width"] - right[1]["x"]) < 0.5  # no white gap between them
            touching += 1
    assert touching


def sixteen(tmp_path, rows=4):
    """A file of 16 dominoes (`rows` 4: a 4 x 8 board; 8: 8 x 4), every cell its own sum region, its pip as
    laid in reading order: the counts the page asks for on opening take the server a moment (on an empty 4 x 8
    board, a worker counted grids for its whole 60 s deadline)."""
    return rows_of_sums(tmp_path, [(a, b) for a in range(4) for b in range(a, 4)] + [(5, 6)] * 6, rows)


def rows_of_sums(tmp_path, dominoes, rows):
    """A file of `dominoes` on `rows` full rows, every cell its own sum region, its pip as laid in reading order."""
    board = [(row, column) for row in range(rows) for column in range(2 * len(dominoes) // rows)]
    pips = [pip for domino in dominoes for pip in domino]
    puzzle = Puzzle.build([("sum", [where], pip) for where, pip in zip(board, pips, strict=True)], dominoes)
    path = tmp_path / f"{len(dominoes)}-on-{rows}-rows.json"
    path.write_text(json.dumps(puzzle_to_nyt(puzzle)))
    return path


def test_a_nine_column_boards_cells_take_a_finger_on_a_tablet_on_its_side(tabs, url, tmp_path):
    """On a tablet on its side (1024 x 768) the laptop's layout gave the panel 300 pixels, and a board 9 columns wide
    (the NYT's widest) had cells 42 pixels wide, under a finger's 44. Now the panel and the gaps are narrower there
    (each group of its buttons still in a row: the panel's test); and a tall board keeps on the screen, under the
    chooser's two rows."""
    page = tabs["phone"]
    page.set_viewport_size({"width": 1024, "height": 768})
    try:
        open_on_any_screen(opened(page, url), rows_of_sums(tmp_path, [(n % 7, (n + 3) % 7) for n in range(9)], 2))
        assert cell(page, (0, 8)).bounding_box()["width"] >= 44
        open_on_any_screen(page, sixteen(tmp_path, 8))
        drawing = page.locator(".board-svg").bounding_box()
        assert drawing["y"] + drawing["height"] <= 768
    finally:
        page.set_viewport_size(SCREENS["phone"]["viewport"])


def open_on_any_screen(page, path):
    if page.is_visible("#chooser-toggle"):
        page.tap("#chooser-toggle")
    page.set_input_files("#file", str(path))
    page.wait_for_selector(f"#title:has-text('{path.name}')")


def test_a_16_domino_board_and_tray_fit_a_laptop_and_a_phone(tabs, url, tmp_path):
    path = sixteen(tmp_path)
    laptop, phone = screenshots(tabs, url, tmp_path, "sixteen", lambda page: open_on_any_screen(page, path))
    assert laptop.locator(".tray-domino").count() == 16
    assert cell(laptop, (0, 0)).bounding_box()["width"] > 45
    last = laptop.locator(".tray-domino").last.bounding_box()
    assert last["y"] + last["height"] <= 800  # the whole tray on the screen, without scrolling
    assert cell(phone, (0, 0)).bounding_box()["width"] > 35
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_count_not_finished_in_time_is_said_so(page):
    assert page.evaluate("counted({count: '0', exact: false})") == "not counted in time"
    assert page.evaluate("counted({count: '1200', exact: false})") == "at least 1,200 (not counted in time)"
    assert page.evaluate("counted({count: '1025428', exact: true})") == "1,025,428"
    page.wait_for_selector(".stats dd:text('1')")  # the day's counts, once counted


@pytest.mark.parametrize("rows", [4, 8])
def test_a_hints_cells_and_message_are_on_a_phones_screen(tabs, url, tmp_path, rows):
    """On a 390 x 844 phone the hint's message sat at the screen's bottom edge under a 16-domino board (4 x 8),
    and below it under a taller one (8 x 4): a tap on Hint seemed to do nothing. Then, brought up alone, the
    message pushed the hint's cell, at the top of the taller board, off the top of the screen. Now both are on
    the screen where they fit (4 x 8), else the cells (8 x 4)."""
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, sixteen(tmp_path, rows))
    page.tap("#hint")
    page.wait_for_selector(".message.hint strong")
    page.wait_for_timeout(600)  # (a smooth scroll's time)
    page.screenshot(path=str(tmp_path / f"hint-{rows}-390x844.png"))
    boxes = [page.locator(".hint-cell").nth(n).bounding_box() for n in range(page.locator(".hint-cell").count())]
    message = page.locator("#message").bounding_box()
    assert boxes and all(box["y"] >= 0 and box["y"] + box["height"] <= 844 for box in boxes)
    fits = message["y"] + message["height"] - min(box["y"] for box in boxes) <= 844
    assert fits == (rows == 4)  # (the wider board leaves room for both, the taller one does not)
    if fits:
        assert message["y"] >= 0 and message["y"] + message["height"] <= 844


def swipe_up(page, x, y, distance):
    """A finger drawn `distance` pixels up the screen from (x, y), in ten steps, as Chromium takes touches (Playwright's
    touchscreen only taps)."""
    touches = page.context.new_cdp_session(page)
    for kind, points in [("touchStart", [{"x": x, "y": y}]),
                         *[("touchMove", [{"x": x, "y": y - distance * step / 10}]) for step in range(1, 11)],
                         ("touchEnd", [])]:
        touches.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    touches.detach()
    page.wait_for_timeout(300)  # (the scroll's fling)


def test_a_swipe_beside_the_trays_dominoes_scrolls_a_phones_page(tabs, url, tmp_path):
    """Under a tall board (8 x 4) the board and the tray, each as wide as the screen, filled it, and a swipe on the
    tray did nothing: only the header scrolled the page down to the buttons. Now a swipe beside the tray's dominoes
    scrolls it; one on a domino still takes the domino, and the page stays."""
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, sixteen(tmp_path, 8))
    domino, tray = tile(page, 0).bounding_box(), page.locator("#tray").bounding_box()
    swipe_up(page, domino["x"] + domino["width"] / 2, domino["y"] + domino["height"] / 2, 40)
    assert page.evaluate("scrollY") == 0 and page.evaluate("hand.tile") == 0
    swipe_up(page, tray["x"] + 8, tray["y"] + 30, 200)
    assert page.evaluate("scrollY") > 100


def test_a_revealed_domino_is_on_a_phones_screen(tabs, url, tmp_path):
    """On a phone, Reveal one, far below a large board (8 x 4), laid its domino out of sight, at the top."""
    page = opened(tabs["phone"], url)
    open_on_any_screen(page, sixteen(tmp_path, 8))
    page.tap("#reveal-one")
    page.wait_for_selector("[data-placed]")
    box = page.locator("[data-placed]").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
