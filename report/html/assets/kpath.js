/*
 * kpath.js: selecting a path on a function page of `kpath html`.
 *
 * Markup contract (report/html/html_page.c): a selectable path is
 * <tr class="path" tabindex="0" data-ids="A B .." data-iters="L ..;L ..">,
 * data-iters holding per iteration the decoded lines of its Ball-Larus
 * path (a block's span of lines as "first-last", a one-line block as its
 * line); each source line is <tr id="L<n>" data-line="<n>"> with a
 * td.badges cell.  Selecting a path marks every line of every iteration
 * (class "hl", and "hl-itN" for the colour of the first iteration through
 * it) and puts one numbered badge per iteration on the line; the iteration
 * bar, or Left/Right, shows one iteration at a time.
 */
(function () {
  'use strict';
  var COLOURS = 6;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.path'));
  var bar = document.getElementById('iterbar');
  if (!rows.length || !bar) return;

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
      tr.className = '';
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
        if (!tr.classList.contains('hl')) tr.className = 'hl hl-' + colour(i);
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
      if (r.top < 0 || r.bottom > window.innerHeight) first.scrollIntoView({ block: 'center' });
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

  rows.forEach(function (row, idx) {
    row.addEventListener('click', function () { select(row); });
    row.addEventListener('keydown', function (e) {
      var to = null;
      switch (e.key) {
      case 'Enter': case ' ': select(row); break;
      case 'ArrowDown': to = rows[idx + 1]; break;
      case 'ArrowUp': to = rows[idx - 1]; break;
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
  if (start && start.classList.contains('path')) select(start);
  else renderBar();
}());
