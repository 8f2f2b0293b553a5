/*
 * kpath.js: the pages of `kpath html`: sortable columns and the filter box
 * (index), selecting a path and the prefix toggle (function pages).
 *
 * Markup contract (report/html/html_page.c): a selectable path is
 * <tr class="path" tabindex="0" data-ids="A B .." data-iters="L ..;L ..">,
 * data-iters holding per iteration the decoded lines of its Ball-Larus
 * path (a block's span of lines as "first-last", a one-line block as its
 * line); each source line is <tr id="L<n>" data-line="<n>"> with a
 * td.badges cell.  Selecting a path marks every line of every iteration
 * (class "hl", and "hl-itN" for the colour of the first iteration through
 * it) and puts one numbered badge per iteration on the line; the iteration
 * bar, or Left/Right, shows one iteration at a time.  Rows of class
 * "prefix" (report/html/html_paths.c) are hidden until input#show-prefixes
 * is ticked; a link to one ticks it.
 *
 * Index (report/html/html_index.c): a th of a table.sortable sorts its
 * column on click (by the cells' data-sort when the th has data-type="num",
 * by text otherwise; a second click reverses); input#filter hides the rows
 * of each table.filterable whose text does not contain it.
 */
(function () {
  'use strict';
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  function sortBy(table, th, col) {
    var num = th.getAttribute('data-type') === 'num';
    var dir = th.getAttribute('aria-sort') === (num ? 'descending' : 'ascending') ? -1 : 1;
    if (num) dir = -dir; /* numbers: largest first on the first click */
    var key = function (tr) {
      var td = tr.cells[col];
      if (!td) return num ? -Infinity : '';
      return num ? Number(td.getAttribute('data-sort')) : td.textContent.trim().toLowerCase();
    };
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (tr, i) { return [key(tr), i, tr]; });
    rows.sort(function (a, b) {
      if (a[0] < b[0]) return -dir;
      if (a[0] > b[0]) return dir;
      return a[1] - b[1];
    });
    rows.forEach(function (r) { body.appendChild(r[2]); });
    each(table.tHead.rows[0].cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
  }

  each(document.querySelectorAll('table.sortable'), function (table) {
    each(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = 'sort by ' + th.textContent;
      th.addEventListener('click', function () { sortBy(table, th, col); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, th, col); }
      });
    });
  });

  var filter = document.getElementById('filter');
  if (filter) {
    var count = document.getElementById('filter-count');
    var apply = function () {
      var q = filter.value.trim().toLowerCase(), shown = 0, all = 0;
      each(document.querySelectorAll('table.filterable tbody tr'), function (tr) {
        var hit = !q || tr.textContent.toLowerCase().indexOf(q) >= 0;
        tr.classList.toggle('filtered-out', !hit);
        if (tr.closest('#funcs')) { all++; shown += hit; }
      });
      count.textContent = q ? shown + ' of ' + all + ' functions' : '';
    };
    filter.addEventListener('input', apply);
    apply();
  }

  paths();

  function paths() {
  var COLOURS = 6;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.path'));
  var bar = document.getElementById('iterbar');
  if (!rows.length || !bar) return;
  var toggle = document.getElementById('show-prefixes');
  var kpTable = document.getElementById('kp-table');
  function showPrefixes(on) {
    if (toggle) toggle.checked = on;
    if (kpTable) kpTable.classList.toggle('show-prefixes', on);
  }
  if (toggle) toggle.addEventListener('change', function () { showPrefixes(toggle.checked); });
  function visible(row) { return row && row.offsetParent !== null; }

  var sel = { row: null, iters: [], shown: 0 }; /* shown: 0 = all, i = iteration i */

  function colour(i) { return 'it' + (i % COLOURS + 1); }

  function parseIters(row) {
    return row.getAttribute('data-iters').split(';').map(function (s) {
      s = s.trim();
      var lines = [];
      if (s) s.split(/\s+/).forEach(function (t) {
        var r = t.split('-').map(Number), l;
        for (l = r[0]; l <= (r.length > 1 ? r[1] : r[0]); l++) lines.push(l);
      });
      return lines;
    });
  }

  function clearLines() {
    Array.prototype.forEach.call(document.querySelectorAll('tr.hl'), function (tr) {
      for (var i = 1; i <= COLOURS; i++) tr.classList.remove('hl-it' + i);
      tr.classList.remove('hl');
      tr.querySelector('td.badges').textContent = '';
    });
  }

  function paint() {
    clearLines();
    var first = null;
    sel.iters.forEach(function (lines, i) {
      if (sel.shown && sel.shown !== i + 1) return;
      var seen = {};
      lines.forEach(function (l) {
        if (seen[l]) return;
        seen[l] = true;
        var tr = document.getElementById('L' + l);
        if (!tr) return;
        if (!tr.classList.contains('hl')) tr.classList.add('hl', 'hl-' + colour(i));
        var b = document.createElement('span');
        b.className = 'badge ' + colour(i);
        b.textContent = String(i + 1);
        b.title = 'iteration ' + (i + 1);
        tr.querySelector('td.badges').appendChild(b);
        if (!first || l < Number(first.getAttribute('data-line'))) first = tr;
      });
    });
    renderBar();
    if (first) {
      var r = first.getBoundingClientRect();
      var bar = document.querySelector('header.bar');
      var top = bar ? bar.getBoundingClientRect().bottom : 0;
      if (r.top < top || r.bottom > window.innerHeight) first.scrollIntoView({ block: 'center' });
    }
  }

  function button(text, value, cls, title) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.className = cls;
    b.title = title;
    b.setAttribute('aria-pressed', String(sel.shown === value));
    b.addEventListener('click', function () { sel.shown = value; paint(); });
    return b;
  }

  function renderBar() {
    bar.textContent = '';
    var label = document.createElement('span');
    label.className = 'label';
    if (!sel.row) {
      label.textContent = 'No path selected.';
      bar.appendChild(label);
      return;
    }
    var n = sel.iters.length;
    var cells = sel.row.querySelectorAll('td');
    label.textContent = (n > 1 ? n + '-iteration path' : 'Ball-Larus path') + ' ' +
      sel.row.getAttribute('data-ids').split(' ').join(' \u2192 ') + ', count ' + cells[1].textContent + ':';
    bar.appendChild(label);
    if (n > 1) {
      bar.appendChild(button('all', 0, 'iter all', 'all iterations'));
      for (var i = 0; i < n; i++)
        bar.appendChild(button(String(i + 1), i + 1, 'iter ' + colour(i), 'iteration ' + (i + 1) + ' only'));
    }
    var missing = sel.iters.some(function (l) { return !l.length; });
    if (missing) {
      var w = document.createElement('span');
      w.className = 'warn';
      w.textContent = ' (the profile does not decode some of its paths)';
      bar.appendChild(w);
    }
  }

  function select(row) {
    if (sel.row) {
      sel.row.classList.remove('selected');
      sel.row.setAttribute('aria-selected', 'false');
    }
    sel.row = row;
    sel.shown = 0;
    sel.iters = row ? parseIters(row) : [];
    if (row) {
      row.classList.add('selected');
      row.setAttribute('aria-selected', 'true');
      if (history.replaceState) history.replaceState(null, '', '#' + row.id);
    }
    paint();
  }

  function step(d) {
    var n = sel.iters.length;
    if (!sel.row || n < 2) return;
    sel.shown = (sel.shown + d + n + 1) % (n + 1);
    paint();
  }

  /* the next shown row from idx in direction d (hidden prefixes skipped) */
  function near(idx, d) {
    for (var i = idx + d; i >= 0 && i < rows.length; i += d)
      if (visible(rows[i])) return rows[i];
    return null;
  }

  rows.forEach(function (row, idx) {
    row.addEventListener('click', function () { select(row); });
    row.addEventListener('keydown', function (e) {
      var to = null;
      switch (e.key) {
      case 'Enter': case ' ': select(row); break;
      case 'ArrowDown': to = near(idx, 1); break;
      case 'ArrowUp': to = near(idx, -1); break;
      case 'ArrowRight': step(1); break;
      case 'ArrowLeft': step(-1); break;
      case 'Escape': select(null); break;
      default: return;
      }
      e.preventDefault();
      if (to) { to.focus(); select(to); }
    });
  });

  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.closest && e.target.closest('tr.path')) return;
    if (e.key === 'Escape') select(null);
    else if (e.key === 'ArrowRight' && sel.row) { step(1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' && sel.row) { step(-1); e.preventDefault(); }
  });

  var start = location.hash && document.getElementById(location.hash.slice(1));
  if (start && start.classList.contains('path')) {
    if (start.classList.contains('prefix')) showPrefixes(true);
    select(start);
    /* The row scrolls into view inside its panel, and the page stays at
     * the top (the header and the function's name in view) unless the row
     * cannot be shown otherwise: then the page scrolls just enough.  The
     * header bar is sticky, so it stays in view either way. */
    var settle = function () {
      var aside = start.closest('aside'), a, r;
      window.scrollTo(0, 0);
      if (!aside) return;
      a = aside.getBoundingClientRect();
      r = start.getBoundingClientRect();
      if (r.top < a.top + 34 || r.bottom > Math.min(a.bottom, window.innerHeight))
        aside.scrollTop += r.top - a.top - 34;
      r = start.getBoundingClientRect();
      if (r.bottom > window.innerHeight) window.scrollBy(0, r.bottom - window.innerHeight + 16);
    };
    settle();
    window.addEventListener('load', function () { setTimeout(settle, 0); });
  } else {
    renderBar();
  }
  }
}());
