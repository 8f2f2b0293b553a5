// browser_cov_test.js: coverage and navigation of `kpath html` in headless
// Chromium, on the multi-file program tests/html/fixtures/project.
//
//   node browser_cov_test.js SITE_DIR PROFILE.json COVERAGE.json SHOT_DIR
//
// COVERAGE.json is `kpath coverage --json` of the same profile and source
// root: the pages must show exactly its figures (one computation).  Checks,
// each a DOM assertion:
//  - index: total, per-file and per-directory coverage (a directory is the
//    sum of the files below it); the filter box; sortable columns; file and
//    directory names on one line even in a narrow window (the table scrolls);
//  - function pages: the uncovered lines (tr.unc, red) and covered ones
//    (tr.cov) are coverage's; each branch cell's taken/total is coverage's;
//    the multi-iteration table shows the maximal sequences (k-IPF leaves)
//    and the prefixes only behind the toggle; ArrowDown skips hidden rows;
//    each Ball-Larus row's lines are its blocks' spans; 18-digit IDs are
//    shortened with the full ID in the title; function names in the source
//    link to their pages;
//  - a #kpN link keeps the header and the function's name in view and the
//    row below the header; a long source line scrolls inside its panel;
//  - no page loads anything but its own files (no network), no errors.
// Saves html-index.png and html-function.png in SHOT_DIR (docs/img/).
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(process.env.KPATH_NODE_MODULES, 'playwright-core'));

const [siteDir, profilePath, covPath, shotDir] = process.argv.slice(2);
let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (cond) {
    console.log('ok   ' + what);
  } else {
    console.log('FAIL ' + what);
    failures++;
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sortNum = (a) => [...a].sort((x, y) => x - y);

const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));
const cov = JSON.parse(fs.readFileSync(covPath, 'utf8'));
const fnOf = (name) => profile.functions.find((f) => f.name === name);
const covFile = (name) => cov.files.find((f) => f.file === name);
const frac = (k) => `${k.covered}/${k.total}`;

// The k-IPF nodes of depth >= 2: maximal (leaves) and prefixes, as id lists.
function multiNodes(fn) {
  const maximal = [], prefixes = [];
  (function walk(level, ids) {
    for (const n of level) {
      const p = [...ids, String(n.id)];
      if (p.length >= 2) (n.children.length ? prefixes : maximal).push(p.join(' '));
      walk(n.children, p);
    }
  }(fn.kipf, []));
  return { maximal, prefixes };
}

// A Ball-Larus path's line summary: spans in path order, joined when one
// starts inside or right after the previous (report/html/html_paths.c).
function lineSummary(p) {
  const out = [];
  let cur = null;
  for (const [a, b] of p.spans) {
    if (cur && a >= cur[0] && a <= cur[1] + 1) cur[1] = Math.max(cur[1], b);
    else { if (cur) out.push(cur); cur = [a, b]; }
  }
  if (cur) out.push(cur);
  return out.length ? out.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(' ') : '-';
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.KPATH_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    headless: true,
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  page.on('requestfailed', (r) => errors.push('request failed: ' + r.url()));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url()); });
  const url = (name) => 'file://' + path.resolve(siteDir, name);

  for (const p of fs.readdirSync(siteDir).filter((f) => f.endsWith('.html')).sort()) {
    errors.length = 0;
    await page.goto(url(p));
    await page.waitForLoadState('load');
    check(errors.length === 0, `${p} loads without errors or network requests ${errors.join('; ')}`);
  }

  await page.goto(url('index.html'));
  const pages = Object.fromEntries(await page.$$eval('#funcs tbody tr td.name a', (as) =>
    as.map((a) => [a.textContent, a.getAttribute('href')])));
  await testIndex(page);
  await page.screenshot({ path: path.join(shotDir, 'html-index.png'), fullPage: true });
  await testSort(page);
  await testFilter(page);
  await testNoWrap(page, url);

  await testFunction(page, url, pages, 'count_words');
  await testFunction(page, url, pages, 'area');
  await testLinks(page, url, pages);
  await testShortIds(page, url, pages, 'mix_bits');
  await testAnchor(page, url, pages, 'count_words');
  await testLongLine(page, url, pages, 'scaled_total');

  // The screenshot of a function page: the hottest deepest maximal path.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url(pages.count_words));
  const deepest = (await page.$$eval('#kp-table tr.path:not(.prefix)', (trs) =>
    trs.map((t) => ({ id: '#' + t.id, n: t.dataset.ids.split(' ').length }))))
    .reduce((a, b) => (b.n > a.n ? b : a));
  await page.click(deepest.id);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(shotDir, 'html-function.png'), fullPage: false });
  check(errors.length === 0, `no console errors, page errors or network requests ${errors.join('; ')}`);
  await browser.close();
}

async function testIndex(page) {
  const total = await page.$$eval('#cov-total dd', (dds) => dds.map((d) => d.textContent));
  const t = cov.total;
  check(total.length === 4 && total[0].includes(`${t.lines.covered} / ${t.lines.total}`) &&
    total[1].includes(`${t.branches.covered} / ${t.branches.total}`) &&
    total[2].includes(`${t.functions.covered} / ${t.functions.total}`) &&
    total[0].startsWith(t.lines.percent.toFixed(1) + '%'),
  `index: total coverage ${total.join(' | ')} is kpath coverage's`);
  const rows = await page.$$eval('#files tbody tr', (trs) => trs.map((tr) =>
    [tr.cells[0].textContent, ...[1, 2, 3, 4].map((i) => tr.cells[i].querySelector('.frac')?.textContent ?? '-')]));
  check(rows.length === cov.files.length, `index: ${rows.length} file rows for ${cov.files.length} files`);
  for (const [name, l, b, f, p] of rows) {
    const c = covFile(name);
    check(c && l === frac(c.lines) && b === frac(c.branches) && f === frac(c.functions) &&
      p.split('/')[0] === String(c.paths.covered),
    `index: ${name}: lines ${l}, branches ${b}, functions ${f}, paths ${p} are coverage's`);
  }
  const foot = await page.$$eval('#files tfoot td.pct .frac', (s) => s.map((x) => x.textContent));
  check(foot[0] === frac(t.lines) && foot[1] === frac(t.branches), `index: the files' total row ${foot.join(' ')}`);
  // directories: every prefix ending before a '/', summed over the files below
  const want = new Map();
  for (const f of cov.files) {
    for (let i = 1; i < f.file.length; i++) {
      if (f.file[i] !== '/') continue;
      const d = f.file.slice(0, i);
      const s = want.get(d) || { files: 0, lines: [0, 0], branches: [0, 0], functions: [0, 0] };
      s.files++;
      for (const k of ['lines', 'branches', 'functions']) {
        s[k][0] += f[k].covered;
        s[k][1] += f[k].total;
      }
      want.set(d, s);
    }
  }
  const dirs = await page.$$eval('#dirs tbody tr', (trs) => trs.map((tr) =>
    [tr.cells[0].textContent, tr.cells[1].textContent, ...[2, 3, 4].map((i) => tr.cells[i].querySelector('.frac')?.textContent)]));
  check(same(dirs.map((d) => d[0]).sort(), [...want.keys()].map((d) => d + '/').sort()),
    `index: directories ${dirs.map((d) => d[0]).join(' ')}`);
  check(want.size >= 3, `index: the project has ${want.size} directories`);
  for (const [name, files, l, b, f] of dirs) {
    const s = want.get(name.replace(/\/$/, ''));
    check(s && files === String(s.files) && l === s.lines.join('/') && b === s.branches.join('/') && f === s.functions.join('/'),
      `index: directory ${name}: ${files} files, lines ${l}, branches ${b}, functions ${f} = the sums of its files`);
  }
}

async function testSort(page) {
  const col = async (table, i, attr) => page.$$eval(`#${table} tbody tr`, (trs, [j, a]) =>
    trs.map((tr) => (a ? Number(tr.cells[j].getAttribute(a)) : tr.cells[j].textContent)), [i, attr]);
  const desc = (v) => v.every((x, i) => i === 0 || v[i - 1] >= x);
  const asc = (v) => v.every((x, i) => i === 0 || v[i - 1] <= x);
  await page.click('#funcs thead th:text-is("flow")');
  check(desc(await col('funcs', 3, 'data-sort')), 'sort: flow, largest first');
  check((await page.getAttribute('#funcs thead th:text-is("flow")', 'aria-sort')) === 'descending', 'sort: aria-sort descending');
  await page.click('#funcs thead th:text-is("flow")');
  check(asc(await col('funcs', 3, 'data-sort')), 'sort: flow again, smallest first');
  await page.click('#funcs thead th:text-is("share")');
  const share = await col('funcs', 4, 'data-sort');
  check(desc(share) && share[0] > share[share.length - 1], `sort: share, largest first ${share.join(' ')}`);
  await page.click('#funcs thead th:text-is("function")');
  const names = await col('funcs', 1);
  check(same(names, [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))) && names.length === profile.functions.length,
    `sort: by name ${names.join(' ')}`);
  await page.click('#files thead th:text-is("lines")');
  const pct = await col('files', 1, 'data-sort');
  check(desc(pct) && pct[0] > pct[pct.length - 1], `sort: files by line coverage ${pct.join(' ')}`);
  await page.focus('#files thead th:text-is("file")');
  await page.keyboard.press('Enter');
  const files = await col('files', 0);
  check(same(files, [...files].sort()), 'sort: Enter on a heading sorts too');
}

async function testFilter(page) {
  const shown = (t) => page.$$eval(`#${t} tbody tr`, (trs) => trs.filter((tr) => tr.offsetParent !== null).map((tr) => tr.cells[tr.closest('#funcs') ? 1 : 0].textContent));
  await page.fill('#filter', 'AREA');
  const f = await shown('funcs');
  const expect = profile.functions.filter((x) => (x.name + x.file).toLowerCase().includes('area')).map((x) => x.name);
  check(same(f.sort(), expect.sort()) && f.length < profile.functions.length,
    `filter "AREA": functions ${f.join(' ')} (case-insensitive, by name or file)`);
  check(same(await shown('files'), ['lib/geometry/area.c']), 'filter "AREA": files');
  check((await page.textContent('#filter-count')) === `${f.length} of ${profile.functions.length} functions`, 'filter: the count says how many');
  await page.fill('#filter', 'count_w');
  check(same(await shown('funcs'), ['count_words']), 'filter "count_w": one function');
  check((await shown('files')).length === 1, 'filter "count_w": the file that holds it');
  await page.fill('#filter', 'no such thing');
  check((await shown('funcs')).length === 0 && (await shown('dirs')).length === 0, 'filter: nothing matches, nothing shown');
  await page.fill('#filter', '');
  check((await shown('funcs')).length === profile.functions.length, 'filter cleared: every function again');
}

async function testNoWrap(page, url) {
  await page.setViewportSize({ width: 760, height: 900 });
  await page.goto(url('index.html'));
  const wraps = await page.$$eval('td.file', (tds) => tds.filter((td) => {
    const r = document.createRange();
    r.selectNodeContents(td);
    const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
    return tops.size !== 1;
  }).map((td) => td.textContent));
  const n = await page.$$eval('td.file', (tds) => tds.length);
  check(n > 0 && wraps.length === 0, `a 760 px window: none of ${n} file and directory names wraps ${wraps.join(' ')}`);
  const scrolls = await page.$eval('#files', (t) => { const d = t.parentElement; return getComputedStyle(d).overflowX === 'auto' && d.scrollWidth > d.clientWidth; });
  check(scrolls, 'a 760 px window: the files table scrolls sideways instead');
  check(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'a 760 px window: the page itself does not overflow');
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function testFunction(page, url, pages, name) {
  const fn = fnOf(name), c = covFile(fn.file);
  await page.goto(url(pages[name]));
  const shown = await page.$$eval('table.src tbody tr', (trs) => trs.map((t) => Number(t.dataset.line)));
  const inPage = (l) => l >= shown[0] && l <= shown[shown.length - 1];
  const unc = await page.$$eval('table.src tr.unc', (trs) => trs.map((t) => Number(t.dataset.line)));
  const covd = await page.$$eval('table.src tr.cov', (trs) => trs.map((t) => Number(t.dataset.line)));
  const wantUnc = c.uncovered_lines.filter(inPage);
  const wantCov = c.line_counts.filter(([l, n]) => n > 0 && inPage(l)).map(([l]) => l);
  check(same(sortNum(unc), sortNum(wantUnc)) && unc.length > 0, `${name}: uncovered lines ${unc.join(' ')} are coverage's`);
  check(same(sortNum(covd), sortNum(wantCov)), `${name}: covered lines ${covd.join(' ')} are coverage's`);
  const red = await page.$eval('table.src tr.unc td.ln', (td) => getComputedStyle(td).backgroundColor);
  check(red === 'rgb(255, 206, 203)', `${name}: an uncovered line is marked red (${red})`);
  const br = await page.$$eval('table.src td.br[data-branches]', (tds) => tds.map((td) =>
    [Number(td.parentElement.dataset.line), Number(td.dataset.taken), Number(td.dataset.branches), td.className]));
  const want = new Map();
  for (const b of c.branch_list.filter((x) => inPage(x.line))) {
    const w = want.get(b.line) || [0, 0];
    w[0] += b.count > 0;
    w[1]++;
    want.set(b.line, w);
  }
  check(br.length === want.size && br.every(([l, t, n]) => same(want.get(l), [t, n])),
    `${name}: branches per line ${br.map(([l, t, n]) => `${l}:${t}/${n}`).join(' ')} are coverage's`);
  const miss = br.filter(([, t, n]) => t < n);
  check(miss.length > 0 && miss.every(([, , , cls]) => /\b(part|none)\b/.test(cls)), `${name}: branches not taken are marked`);

  // multi-iteration table: maximal rows by default, prefixes behind the toggle
  const { maximal, prefixes } = multiNodes(fn);
  const visibleIds = () => page.$$eval('#kp-table tr.path', (trs) => trs.filter((t) => t.offsetParent !== null).map((t) => t.dataset.ids));
  if (maximal.length) {
    const v = await visibleIds();
    check(v.length === Math.min(maximal.length, 25) && v.every((ids) => maximal.includes(ids)),
      `${name}: the multi-iteration table shows ${v.length} maximal sequences (of ${maximal.length}), no prefix`);
    if (prefixes.length) {
      await page.check('#show-prefixes');
      const all = await visibleIds();
      const pre = all.filter((ids) => !maximal.includes(ids));
      check(pre.length === Math.min(prefixes.length, 25) && pre.every((ids) => prefixes.includes(ids)),
        `${name}: the toggle adds the ${pre.length} prefixes`);
      await page.uncheck('#show-prefixes');
      check(same(await visibleIds(), v), `${name}: unticked, the prefixes are hidden again`);
      const rows = await page.$$eval('#kp-table tr.path', (trs) => trs.map((t) => ({ id: t.id, prefix: t.classList.contains('prefix') })));
      const first = rows.findIndex((r) => !r.prefix);
      const next = rows.slice(first + 1).find((r) => !r.prefix);
      await page.focus('#' + rows[first].id);
      await page.keyboard.press('ArrowDown');
      check(await page.evaluate(() => document.activeElement.id) === next.id, `${name}: ArrowDown skips the hidden prefixes`);
    }
  }
  // Ball-Larus table: each row's lines
  const bl = await page.$$eval('#bl-table tr.path', (trs) => trs.map((t) => [t.dataset.ids, t.querySelector('td.lines').textContent]));
  const decoded = new Map(fn.paths.map((p) => [String(p.id), p]));
  check(bl.length > 0 && bl.every(([id, lines]) => decoded.has(id) && lines === lineSummary(decoded.get(id))),
    `${name}: every Ball-Larus row shows its lines: ${bl.map(([id, l]) => `${id}: ${l}`).join(', ')}`);
}

async function testLinks(page, url, pages) {
  await page.goto(url(pages.main));
  const links = await page.$$eval('table.src a.fnlink', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  const targets = Object.fromEntries(links);
  const called = ['area', 'scaled_total', 'count_words', 'mix_bits'];
  check(called.every((n) => targets[n] === pages[n]), `main: calls link to their pages ${links.map((l) => l.join('->')).join(' ')}`);
  check(!('printf' in targets), 'main: printf (not in the profile) is not a link');
  await page.click(`table.src a.fnlink[href="${pages.area}"]`);
  await page.waitForLoadState('load');
  check((await page.textContent('h1 code')) === 'area', 'main: clicking area opens its page');
}

async function testShortIds(page, url, pages, name) {
  await page.goto(url(pages[name]));
  const chips = await page.$$eval('#bl-table tr.path', (trs) => trs.map((t) => {
    const chip = t.querySelector('.chip');
    return { id: t.dataset.ids, text: chip.textContent, title: chip.title, width: chip.getBoundingClientRect().width };
  }));
  const long = chips.filter((c) => c.id.length > 9);
  check(long.length > 0 && long.every((c) => c.id.length >= 18), `${name}: ${long.length} path IDs of 18 or more digits`);
  check(long.every((c) => c.text === c.id.slice(0, 4) + '\u2026' + c.id.slice(-3) && c.title.endsWith(' ' + c.id) && c.width < 110),
    `${name}: long IDs shown short ${long.map((c) => c.text + ' = ' + c.id).join(', ')}, full in the title`);
}

async function testAnchor(page, url, pages, name) {
  // kp3 and kpp1 fit with the page at the top; bl2 (below the multi-iteration
  // table) needs the page to scroll, under the sticky header.
  for (const [frag, top] of [['kp3', true], ['kpp1', true], ['bl2', false]]) {
    await page.goto('about:blank');
    await page.goto(url(pages[name]) + '#' + frag);
    await page.waitForLoadState('load');
    await page.waitForTimeout(100);
    const g = await page.evaluate((id) => {
      const bar = document.querySelector('header.bar').getBoundingClientRect();
      const h1 = document.querySelector('h1').getBoundingClientRect();
      const row = document.getElementById(id);
      const r = row.getBoundingClientRect();
      return { barTop: bar.top, barBottom: bar.bottom, h1Top: h1.top, top: r.top, bottom: r.bottom,
        selected: row.getAttribute('aria-selected'), h: window.innerHeight, y: window.scrollY, visible: row.offsetParent !== null };
    }, frag);
    check(g.selected === 'true' && g.visible, `#${frag}: the row is selected and shown`);
    check(g.barTop === 0 && (!top || (g.y === 0 && g.h1Top >= g.barBottom)),
      `#${frag}: the header ${top ? "and the function's name stay" : 'stays'} in view (scrollY ${g.y})`);
    check(g.top >= g.barBottom && g.bottom <= g.h, `#${frag}: the row (${Math.round(g.top)}..${Math.round(g.bottom)}) is in view, below the header (${g.barBottom})`);
  }
}

async function testLongLine(page, url, pages, name) {
  await page.goto(url(pages[name]));
  const g = await page.evaluate(() => {
    const box = document.querySelector('div.srcscroll');
    const codes = [...document.querySelectorAll('table.src td.code')];
    const longest = codes.reduce((a, b) => (b.textContent.length > a.textContent.length ? b : a));
    const before = longest.getBoundingClientRect().right - box.getBoundingClientRect().right;
    box.scrollLeft = box.scrollWidth;
    const r = document.createRange();
    r.selectNodeContents(longest);
    const after = r.getBoundingClientRect().right - box.getBoundingClientRect().right;
    return { overflow: getComputedStyle(box).overflowX, clip: getComputedStyle(box.parentElement).overflow,
      sw: box.scrollWidth, cw: box.clientWidth, len: longest.textContent.length, before, after,
      page: document.documentElement.scrollWidth <= window.innerWidth };
  });
  check(g.len > 200 && g.sw > g.cw && g.before > 0, `${name}: a ${g.len}-character line is wider than its panel (${g.sw} > ${g.cw})`);
  check(g.overflow === 'auto' && g.clip === 'visible' && g.after <= 1, `${name}: it scrolls sideways to its end (${g.overflow}, end at ${Math.round(g.after)})`);
  check(g.page, `${name}: the page itself does not overflow`);
}

main().then(() => {
  console.log(failures ? `${failures} of ${checks} check(s) failed` : `all ${checks} checks passed`);
  process.exit(failures || checks === 0 ? 1 : 0);
}, (e) => {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
