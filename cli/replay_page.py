"""The replay page's own style sheet, script and HTML skeleton, inline in every page that
``html`` writes, so that the page loads nothing from the network. The style sheet and the
script are files shipped beside this module (replay_page.css, replay_page.js)."""

from importlib.resources import files

STYLE = (files("tranquility.cli") / "replay_page.css").read_text(encoding="utf-8")
SCRIPT = (files("tranquility.cli") / "replay_page.js").read_text(encoding="utf-8")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header>
    <h1>{title}</h1>
    <p><span id="verdict" class="verdict {verdict_class}">{verdict}</span> <span id="verdict-by">{verdict_by}</span></p>
    {head}
</header>
<main>
  <section id="board">
    <div id="controls">
      <button id="first" type="button" title="First step (Home)">&#xab; First</button>
      <button id="prev" type="button" title="Previous step (left arrow)">&#x25c0; Prev</button>
      <input id="slider" type="range" min="0" max="{last}" value="0" step="1" aria-label="Step">
      <button id="next" type="button" title="Next step (right arrow)">Next &#x25b6;</button>
      <button id="last" type="button" title="Last step (End)">Last &#xbb;</button>
    </div>
    <p id="step-label">Step 0 of {last}</p>
    <p id="action-text"></p>
    <p id="moved"><span id="paid-text"></span><span id="gone-text"></span><span id="drawn-text"></span></p>
    <div id="critical" class="critical empty"></div>
    <div id="marks"></div>
    <p id="moments-text"></p>
    <div id="table-area">
      <div id="grid-box">
        <table id="grid" style="--cols: {cols}; --rows: {rows}" aria-label="Grid, top row first, row 0 at the bottom"></table>
        <p id="state-line"><span id="status-text"></span>; Start <span id="start-text"></span>;
          cells filled <span id="filled-text"></span>; cards discarded <span id="discarded-text"></span></p>
      </div>
      <div id="seats">
        <table id="hands">
          <thead><tr><th class="seat">Seat</th><th class="hand">Hand</th><th class="pile">Pile (top first)</th>
            <th class="count">Cards</th></tr></thead>
          <tbody id="hands-body"></tbody>
        </table>
      </div>
    </div>
    <p class="help">Left / right arrow keys step through the line; add <code>#step=N</code> to the address to open at step N.
      Every card is face up: each pile is shown top first.</p>
    <noscript><p>This replay needs JavaScript to draw the positions.</p></noscript>
  </section>
  <aside id="turns-panel">
    <ol id="turn-list"></ol>
  </aside>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
