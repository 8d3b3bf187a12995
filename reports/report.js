/* nbmodernize audit report: renders the JSON island into headline, SVG charts, a sortable and
 * filterable table, and a detail panel (side-by-side diff, trajectory, compared values).
 * No dependencies, no network. Everything from the data is inserted as text, never as HTML. */
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('audit-data').textContent);
  var S = DATA.summary;
  var DETAILS = DATA.details || {};
  var CAUSES = DATA.causes || {};
  var SVGNS = 'http://www.w3.org/2000/svg';
  var COLORS = {
    reproduced: '#2f9e63', 'not-reproduced': '#d9534f', failed: '#8a94a6',
    'reproduced as-is': '#2f9e63', fixed: '#4f8ff0', 'not reproduced': '#d9534f', 'broken by the fix': '#b5359a',
    'could not evaluate': '#8a94a6', crashed: '#38404f'
  };
  var PALETTE = ['#3b6fd8', '#e69a28', '#2f9e63', '#d9534f', '#8e5fd1', '#14a3a3', '#c7682b', '#6b7a90', '#b5359a', '#7fa33a'];

  // ------------------------------------------------------------ helpers
  function el(tag, attrs, children) {
    var n = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') n.textContent = attrs[k];
      else if (k === 'class') n.className = attrs[k];
      else if (k.slice(0, 2) === 'on') n.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) n.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return n;
  }
  function svg(tag, attrs, text) {
    var n = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function causeLabel(c) { return CAUSES[c] || c; }
  function pct(n, d) { return d ? Math.round(100 * n / d) + '%' : '0%'; }
  function dur(ms) {
    if (ms === null || ms === undefined) return '–';
    if (ms < 1000) return Math.round(ms) + ' ms';
    var s = ms / 1000;
    if (s < 60) return s.toFixed(1) + ' s';
    var m = Math.floor(s / 60);
    if (m < 60) return m + ' min ' + Math.round(s % 60) + ' s';
    return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
  }
  function num(x) {
    if (x === null || x === undefined) return '–';
    return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(5)));
  }
  function money(x) { return '$' + (x || 0).toFixed(2); }
  function entries(obj) { return Object.keys(obj || {}).map(function (k) { return [k, obj[k]]; }); }

  // ------------------------------------------------------------ headline
  function renderHeadline() {
    var a = S.audit, t = S.totals, b = S.before;
    document.getElementById('meta').textContent = [
      a.input ? a.input : null,
      a.mode === 'fix' ? 'modernize (--fix)' : 'baseline (as-is)',
      'environment ' + (a.environment || 'debian13'),
      a.sandbox ? 'sandbox ' + a.sandbox : null,
      a.jobs ? a.jobs + ' at once' : null,
      a.sessions > 1 ? a.sessions + ' sessions (resumed)' : null
    ].filter(Boolean).join(' · ');
    if (!a.complete && a.planned !== null) {
      var w = document.getElementById('incomplete');
      w.hidden = false;
      w.textContent = 'Incomplete: ' + t.notebooks + ' of ' + a.planned + ' notebooks finished — resume with --resume.';
    }
    var h = document.getElementById('headline');
    var fix = a.mode === 'fix';
    var main = el('div', { class: 'stat' }, [
      el('div', { class: 'label', text: fix ? 'Reproducible before → after' : 'Reproducible as-is' }),
      el('div', { class: 'value' }, fix ? [
        el('span', { text: b.reproduced + ' / ' + b.notebooks }), el('span', { class: 'arrow', text: '→' }),
        el('span', { class: 'after', text: t.reproduced + ' / ' + t.notebooks })
      ] : [el('span', { text: t.reproduced + ' / ' + t.notebooks })]),
      el('div', { class: 'sub', text: fix ? pct(b.reproduced, b.notebooks) + ' as-is → ' + pct(t.reproduced, t.notebooks) + ' after modernization' : pct(t.reproduced, t.notebooks) + ' reproduce in the fixed environment without edits' })
    ]);
    h.appendChild(main);
    h.appendChild(el('div', { class: 'stat' }, [
      el('div', { class: 'label', text: 'Not reproduced / failed' }),
      el('div', { class: 'value', text: t['not-reproduced'] + ' / ' + t.failed }),
      el('div', { class: 'sub', text: 'failed = could not be evaluated (malformed, non-Python, sandbox)' })
    ]));
    h.appendChild(el('div', { class: 'stat' }, [
      el('div', { class: 'label', text: 'Cost' }),
      el('div', { class: 'value', text: money(S.cost.usd) }),
      el('div', { class: 'sub', text: S.cost.llmCalls + ' LLM calls · ' + S.cost.inputTokens + ' in / ' + S.cost.outputTokens + ' out tokens' })
    ]));
    h.appendChild(el('div', { class: 'stat' }, [
      el('div', { class: 'label', text: 'Time' }),
      el('div', { class: 'value', text: dur(S.audit.elapsedMs) }),
      el('div', { class: 'sub', text: 'notebooks ' + dur(S.time.notebookMs) + ' (cells ' + dur(S.time.cellMs) + ') · median ' + dur(S.time.medianNotebookMs) })
    ]));
    document.getElementById('footer').textContent = 'nbmodernize ' + S.tool.version + ' · generated ' + S.generatedAt + ' · summary.json schema ' + S.schemaVersion;
  }

  // ------------------------------------------------------------ charts
  function empty(container, text) { container.appendChild(el('div', { class: 'empty', text: text })); }

  /** Horizontal bars: rows of [label, value, color, onClick]. */
  function hbars(container, rows, opts) {
    if (!rows.length) return empty(container, opts && opts.empty || 'nothing to show');
    var W = 420, rowH = 24, labelW = opts && opts.labelW || 130, H = rows.length * rowH + 6;
    var max = Math.max.apply(null, rows.map(function (r) { return r[1]; })) || 1;
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': opts && opts.title || 'bar chart' });
    rows.forEach(function (r, i) {
      var y = i * rowH + 3, w = Math.max(2, (W - labelW - 44) * r[1] / max);
      var g = svg('g', r[3] ? { class: 'clickable' } : {});
      g.appendChild(svg('title', {}, r[0] + ': ' + r[1]));
      g.appendChild(svg('text', { x: labelW - 6, y: y + 15, 'text-anchor': 'end' }, r[0].length > 22 ? r[0].slice(0, 21) + '…' : r[0]));
      g.appendChild(svg('rect', { x: labelW, y: y + 3, width: w, height: rowH - 8, rx: 3, fill: r[2] || PALETTE[0], 'data-label': r[0] }));
      g.appendChild(svg('text', { x: labelW + w + 5, y: y + 15, class: 'axis' }, String(r[1])));
      if (r[3]) g.addEventListener('click', r[3]);
      s.appendChild(g);
    });
    container.appendChild(s);
  }

  /** Vertical histogram: rows of [label, value]. */
  function columns(container, rows, color, title) {
    if (!rows.some(function (r) { return r[1] > 0; })) return empty(container, 'nothing to show');
    var W = 420, H = 170, pad = 22, bw = (W - 2 * pad) / rows.length;
    var max = Math.max.apply(null, rows.map(function (r) { return r[1]; })) || 1;
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + (H + 30), role: 'img', 'aria-label': title });
    s.appendChild(svg('line', { x1: pad, x2: W - pad, y1: H, y2: H, stroke: '#e4e7ec' }));
    rows.forEach(function (r, i) {
      var h = (H - 20) * r[1] / max, x = pad + i * bw + bw * 0.12, w = bw * 0.76;
      var g = svg('g', {});
      g.appendChild(svg('title', {}, r[0] + ': ' + r[1]));
      g.appendChild(svg('rect', { x: x, y: H - h, width: w, height: Math.max(h, r[1] ? 2 : 0), rx: 2, fill: color }));
      if (r[1]) g.appendChild(svg('text', { x: x + w / 2, y: H - h - 4, 'text-anchor': 'middle', class: 'axis' }, String(r[1])));
      g.appendChild(svg('text', { x: x + w / 2, y: H + 14, 'text-anchor': 'middle' }, r[0]));
      s.appendChild(g);
    });
    container.appendChild(s);
  }

  /** Exception class x cause as a heat grid (top classes), with a total per cause underneath. */
  function heatmap(container, matrix) {
    if (!matrix.length) return empty(container, 'every notebook reproduced as-is');
    var classTotals = {}, causeTotals = {};
    matrix.forEach(function (m) {
      classTotals[m.exceptionClass] = (classTotals[m.exceptionClass] || 0) + m.count;
      causeTotals[m.cause] = (causeTotals[m.cause] || 0) + m.count;
    });
    var classes = Object.keys(classTotals).sort(function (a, b) { return classTotals[b] - classTotals[a] || a.localeCompare(b); }).slice(0, 12);
    var causes = Object.keys(causeTotals).sort(function (a, b) { return causeTotals[b] - causeTotals[a] || a.localeCompare(b); });
    var cellW = Math.max(58, Math.min(96, 640 / causes.length)), cellH = 24, left = 150, top = 64;
    var W = left + causes.length * cellW + 110, H = top + classes.length * cellH + 30;
    var max = Math.max.apply(null, matrix.map(function (m) { return m.count; })) || 1;
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'failure taxonomy' });
    causes.forEach(function (c, j) {
      var x = left + j * cellW + cellW / 2;
      var t = svg('text', { x: x, y: top - 8, 'text-anchor': 'start', transform: 'rotate(-28 ' + x + ' ' + (top - 8) + ')', class: 'clickable' }, causeLabel(c));
      t.addEventListener('click', function () { setFilter('cause', c); });
      s.appendChild(t);
    });
    classes.forEach(function (k, i) {
      var y = top + i * cellH;
      s.appendChild(svg('text', { x: left - 8, y: y + 16, 'text-anchor': 'end' }, k.length > 22 ? k.slice(0, 21) + '…' : k));
      causes.forEach(function (c, j) {
        var m = matrix.filter(function (x) { return x.exceptionClass === k && x.cause === c; })[0];
        var n = m ? m.count : 0;
        var g = svg('g', n ? { class: 'clickable' } : {});
        var a = n ? 0.15 + 0.85 * n / max : 0;
        g.appendChild(svg('rect', { x: left + j * cellW + 1, y: y + 1, width: cellW - 2, height: cellH - 2, rx: 3, fill: n ? 'rgba(217,83,79,' + a.toFixed(2) + ')' : '#f3f4f7' }));
        if (n) {
          g.appendChild(svg('title', {}, k + ' · ' + causeLabel(c) + ': ' + n));
          g.appendChild(svg('text', { x: left + j * cellW + cellW / 2, y: y + 16, 'text-anchor': 'middle', fill: a > 0.55 ? '#fff' : '#1d2330' }, String(n)));
          g.addEventListener('click', function () { setFilter('cause', c, k); });
        }
        s.appendChild(g);
      });
      s.appendChild(svg('text', { x: left + causes.length * cellW + 8, y: y + 16, class: 'axis' }, String(classTotals[k])));
    });
    causes.forEach(function (c, j) {
      s.appendChild(svg('text', { x: left + j * cellW + cellW / 2, y: top + classes.length * cellH + 16, 'text-anchor': 'middle', class: 'axis' }, String(causeTotals[c])));
    });
    container.appendChild(s);
  }

  function renderCharts() {
    var outcomes = entries(S.outcomes).map(function (e) {
      return [e[0], e[1], COLORS[e[0]] || PALETTE[0], function () { setFilter('outcome', e[0]); }];
    });
    hbars(document.querySelector('#chart-outcomes .chart'), outcomes, { title: 'outcomes', labelW: 130 });
    heatmap(document.querySelector('#chart-taxonomy .chart'), S.taxonomy.matrix);
    var fixTypes = entries(S.fixTypes).map(function (e, i) { return [e[0], e[1], PALETTE[i % PALETTE.length]]; });
    hbars(document.querySelector('#chart-fixtypes .chart'), fixTypes, { title: 'fix types', empty: S.audit.mode === 'fix' ? 'no fixes were applied' : 'baseline audit: no fixes (run with --fix)', labelW: 130 });
    var perNb = entries(S.fixesPerNotebook);
    if (S.audit.mode === 'fix') columns(document.querySelector('#chart-fixes .chart'), perNb, '#3b6fd8', 'fixes per notebook');
    else empty(document.querySelector('#chart-fixes .chart'), 'baseline audit: no fixes (run with --fix)');
    columns(document.querySelector('#chart-runtime .chart'), S.runtime.map(function (r) { return [r.label, r.count]; }), '#14a3a3', 'runtime distribution');
  }

  // ------------------------------------------------------------ table
  var fix = S.audit.mode === 'fix';
  var COLS = [
    { key: 'id', label: 'Notebook', cls: 'nb', get: function (n) { return n.id; } },
    fix ? { key: 'before', label: 'As-is', get: function (n) { return n.before; }, badge: true } : null,
    { key: 'verdict', label: fix ? 'After' : 'Verdict', get: function (n) { return n.verdict; }, badge: true },
    { key: 'cause', label: fix ? 'Cause (as-is → now)' : 'Cause', get: function (n) { return causeOf(n) ? causeLabel(causeOf(n)) : ''; }, render: function (n) {
      // The as-is cause (what the taxonomy chart counts); with --fix, what is left when it differs.
      var t = n.beforeTaxonomy || n.taxonomy;
      if (!t) return '';
      var parts = [el('span', { class: 'chip', text: t.exceptionClass }), ' ' + causeLabel(t.cause)];
      if (fix && n.verdict === 'reproduced') parts.push(el('span', { class: 'was', text: ' → fixed' }));
      else if (fix && n.taxonomy && (n.taxonomy.cause !== t.cause || n.taxonomy.exceptionClass !== t.exceptionClass)) parts.push(el('span', { class: 'was', text: ' → ' + n.taxonomy.exceptionClass + ' · ' + causeLabel(n.taxonomy.cause) }));
      return el('span', {}, parts);
    } },
    { key: 'oracle', label: 'Oracle', cls: 'oracle', get: function (n) { return n.oracle; } },
    { key: 'score', label: 'Original → new', cls: 'num', get: function (n) { return n.score ? n.score.new : null; }, render: function (n) {
      return n.score ? num(n.score.original) + ' → ' + num(n.score.new) : '–';
    } },
    { key: 'fixes', label: 'Fixes', cls: 'num', get: function (n) { return n.fixes; } },
    { key: 'cost', label: 'Cost', cls: 'num', get: function (n) { return n.costUsd; }, render: function (n) { return money(n.costUsd); } },
    { key: 'time', label: 'Time', cls: 'num', get: function (n) { return n.wallMs; }, render: function (n) { return dur(n.wallMs); } },
    { key: 'reason', label: 'Reason', cls: 'reason', get: function (n) { return n.reason; }, render: function (n) {
      var first = n.reason.split('\n')[0];
      return first.length > 180 ? first.slice(0, 179) + '…' : first;
    } }
  ].filter(Boolean);
  var state = { q: '', verdict: '', cause: '', outcome: '', cls: '', sort: 'id', dir: 1 };

  function outcomeOf(n) {
    if (n.status === 'crashed') return 'crashed';
    if (n.verdict === 'failed' && n.before === 'failed') return 'could not evaluate';
    if (n.before === 'reproduced' && n.verdict === 'reproduced') return 'reproduced as-is';
    if (n.verdict === 'reproduced') return 'fixed';
    if (n.before === 'reproduced') return 'broken by the fix';
    return 'not reproduced';
  }
  function causeOf(n) { var t = n.beforeTaxonomy || n.taxonomy; return t ? t.cause : ''; }
  function classOf(n) { var t = n.beforeTaxonomy || n.taxonomy; return t ? t.exceptionClass : ''; }

  function setFilter(kind, value, cls) {
    state[kind] = value;
    state.cls = kind === 'cause' && cls ? cls : '';
    document.getElementById('f-' + kind).value = value;
    renderRows();
    document.querySelector('.table-card').scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  function fillSelect(id, values, label) {
    var s = document.getElementById(id);
    values.forEach(function (v) { s.appendChild(el('option', { value: v, text: label ? label(v) : v })); });
  }

  function visible() {
    var q = state.q.toLowerCase();
    return S.notebooks.filter(function (n) {
      if (state.verdict && n.verdict !== state.verdict) return false;
      if (state.cause && causeOf(n) !== state.cause) return false;
      if (state.cls && classOf(n) !== state.cls) return false;
      if (state.outcome && outcomeOf(n) !== state.outcome) return false;
      if (q) {
        var hay = [n.id, n.reason, n.error ? n.error.ename + ': ' + n.error.evalue : '', n.taxonomy ? n.taxonomy.exceptionClass + ' ' + causeLabel(n.taxonomy.cause) : ''].join(' ').toLowerCase();
        if (hay.indexOf(q) < 0) return false;
      }
      return true;
    }).sort(function (a, b) {
      var col = COLS.filter(function (c) { return c.key === state.sort; })[0];
      var x = col.get(a), y = col.get(b);
      if (x === y) return a.id.localeCompare(b.id);
      if (x === null || x === undefined || x === '') return 1;
      if (y === null || y === undefined || y === '') return -1;
      return (typeof x === 'number' ? x - y : String(x).localeCompare(String(y))) * state.dir;
    });
  }

  function renderHead() {
    var tr = document.querySelector('#nb-table thead tr');
    tr.textContent = '';
    COLS.forEach(function (c) {
      var th = el('th', { class: c.cls === 'num' ? 'num' : '', scope: 'col', tabindex: '0', 'data-key': c.key, text: c.label,
        'aria-sort': state.sort === c.key ? (state.dir > 0 ? 'ascending' : 'descending') : 'none' });
      var go = function () {
        if (state.sort === c.key) state.dir = -state.dir; else { state.sort = c.key; state.dir = c.cls === 'num' ? -1 : 1; }
        renderHead(); renderRows();
      };
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
      tr.appendChild(th);
    });
  }

  function renderRows() {
    var rows = visible();
    var tbody = document.querySelector('#nb-table tbody');
    tbody.textContent = '';
    var frag = document.createDocumentFragment();
    rows.forEach(function (n) {
      var tr = el('tr', { tabindex: '0', 'data-id': n.id });
      COLS.forEach(function (c) {
        var v = c.render ? c.render(n) : c.get(n);
        var td = el('td', { class: c.cls || '' });
        if (c.badge) td.appendChild(el('span', { class: 'badge ' + v, text: v }));
        else if (v && typeof v === 'object') td.appendChild(v);
        else td.textContent = v === null || v === undefined ? '' : String(v);
        if (c.key === 'id') td.title = n.path;
        if (c.key === 'reason') td.title = n.reason;
        tr.appendChild(td);
      });
      tr.addEventListener('click', function () { openDetail(n); });
      tr.addEventListener('keydown', function (e) { if (e.key === 'Enter') openDetail(n); });
      frag.appendChild(tr);
    });
    tbody.appendChild(frag);
    document.getElementById('count').textContent = 'showing ' + rows.length + ' of ' + S.notebooks.length;
  }

  function renderTable() {
    fillSelect('f-verdict', ['reproduced', 'not-reproduced', 'failed']);
    fillSelect('f-cause', Object.keys(S.taxonomy.causes), causeLabel);
    fillSelect('f-outcome', Object.keys(S.outcomes));
    document.getElementById('q').addEventListener('input', function (e) { state.q = e.target.value; renderRows(); });
    ['verdict', 'cause', 'outcome'].forEach(function (k) {
      document.getElementById('f-' + k).addEventListener('change', function (e) { state[k] = e.target.value; if (k === 'cause') state.cls = ''; renderRows(); });
    });
    document.getElementById('f-clear').addEventListener('click', function () {
      state.q = state.verdict = state.cause = state.outcome = state.cls = '';
      ['q', 'f-verdict', 'f-cause', 'f-outcome'].forEach(function (id) { document.getElementById(id).value = ''; });
      renderRows();
    });
    renderHead();
    renderRows();
  }

  // ------------------------------------------------------------ detail panel
  /** Unified diff -> files of rows {l: [num, text, kind], r: [num, text, kind]} for a side-by-side table. */
  function parseDiff(text) {
    var files = [], cur = null, ln = 0, rn = 0, dels = [], adds = [];
    function flush() {
      var n = Math.max(dels.length, adds.length);
      for (var i = 0; i < n; i++) cur.rows.push({ l: dels[i] || null, r: adds[i] || null });
      dels = []; adds = [];
    }
    var lines = text.split('\n');
    lines.forEach(function (line, i) {
      if (!cur && (line.indexOf('===') === 0 || line.indexOf('Index:') === 0)) return;
      // A file header is "--- " followed by "+++ "; a removed line "-- x" is not one.
      if (line.indexOf('--- ') === 0 && (lines[i + 1] || '').indexOf('+++ ') === 0) { if (cur) flush(); cur = { name: line.slice(4).replace(/^a\//, '').replace(/\t.*$/, ''), rows: [] }; files.push(cur); return; }
      if (line.indexOf('+++ ') === 0 && cur && !cur.rows.length) return;
      if (!cur) return;
      if (line.indexOf('===') === 0 && (lines[i + 1] || '').indexOf('--- ') === 0) return;
      var m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (m) { flush(); ln = +m[1]; rn = +m[2]; cur.rows.push({ hunk: line }); return; }
      if (line[0] === '-') { dels.push([ln++, line.slice(1), 'del']); return; }
      if (line[0] === '+') { adds.push([rn++, line.slice(1), 'add']); return; }
      if (line[0] === ' ') { flush(); cur.rows.push({ l: [ln++, line.slice(1), ''], r: [rn++, line.slice(1), ''] }); return; }
      if (line[0] === '\\') return;
    });
    if (cur) flush();
    return files;
  }

  function sideBySide(text, labels) {
    var wrap = el('div');
    parseDiff(text).forEach(function (f) {
      var t = el('table', { class: 'sbs' }, [el('colgroup', {}, [el('col', { style: 'width:44px' }), el('col'), el('col', { style: 'width:44px' }), el('col')])]);
      t.appendChild(el('tr', { class: 'side' }, [el('td', { colspan: '2', text: labels[0] }), el('td', { colspan: '2', text: labels[1] })]));
      f.rows.forEach(function (r) {
        if (r.hunk) { t.appendChild(el('tr', { class: 'hunk' }, [el('td', { colspan: '4', text: r.hunk })])); return; }
        var l = r.l || [null, '', 'empty'], rr = r.r || [null, '', 'empty'];
        t.appendChild(el('tr', {}, [
          el('td', { class: 'ln', text: l[0] === null ? '' : String(l[0]) }), el('td', { class: l[2], text: l[1] }),
          el('td', { class: 'ln', text: rr[0] === null ? '' : String(rr[0]) }), el('td', { class: rr[2], text: rr[1] })
        ]));
      });
      wrap.appendChild(el('div', { class: 'diff-file' }, [el('h3', { text: f.name }), t]));
    });
    return wrap;
  }

  function trajectory(entries) {
    var ul = el('ol', { class: 'traj' });
    entries.forEach(function (e) {
      var li = el('li', { class: e.type || '' });
      var head = [el('span', { class: 'kind', text: e.type || 'entry' })];
      var bits = [];
      if (e.type === 'execution') {
        bits.push((e.mode || 'full') + ' run' + (e.fromCell ? ' from cell ' + e.fromCell : '') + ': ' + e.status);
        var ran = (e.cells || []).filter(function (c) { return c.durationMs !== null && c.durationMs !== undefined; });
        bits.push(ran.length + ' cells, ' + dur(ran.reduce(function (s, c) { return s + (c.durationMs || 0); }, 0)));
      } else if (e.type === 'patch' || e.type === 'fix') {
        bits.push((e.fixType || e.type) + ' · ' + (e.source || '') + ' · cell ' + e.cell);
      } else if (e.type === 'verdict') {
        bits.push(e.verdict + ' (' + (e.oracle || '') + ')');
      } else if (e.type === 'stop') {
        bits.push(e.reason + '');
      } else if (e.type === 'diagnosis' && e.diagnosis) {
        bits.push((e.diagnosis.fixType || e.diagnosis.kind) + (e.diagnosis.cell !== undefined ? ' · cell ' + e.diagnosis.cell : ''));
      } else if (e.type === 'llm') {
        bits.push((e.calls || []).length + ' call(s)' + (e.failure ? ' · ' + e.failure : ''));
      }
      li.appendChild(el('div', {}, head.concat([bits.join(' · ')])));
      if (e.type === 'execution' && e.cells) {
        var cells = el('div', { class: 'cells' });
        e.cells.forEach(function (c) {
          cells.appendChild(el('span', { class: 'cell ' + c.status, title: 'cell ' + c.index + ': ' + c.status + (c.durationMs !== null && c.durationMs !== undefined ? ', ' + dur(c.durationMs) : '') + (c.error ? '\n' + c.error.ename + ': ' + c.error.evalue : '') }));
        });
        li.appendChild(cells);
        var bad = e.cells.filter(function (c) { return c.error; })[0];
        if (bad) li.appendChild(el('pre', { text: 'cell ' + bad.index + ': ' + bad.error.ename + ': ' + bad.error.evalue }));
      }
      var text = e.summary || e.reason && e.type !== 'stop' && e.reason || e.detail || (e.diagnosis && e.diagnosis.why) || e.trigger;
      if (text && typeof text === 'string') li.appendChild(el('pre', { text: text }));
      ul.appendChild(li);
    });
    return ul;
  }

  function valuesTable(list) {
    if (!list.length) return el('div', { class: 'empty', text: 'no values were compared' });
    var t = el('table', {}, [el('thead', {}, [el('tr', {}, ['cell', 'original', 'new', 'rel. diff', '', 'context'].map(function (h) { return el('th', { text: h }); }))])]);
    var tb = el('tbody');
    list.forEach(function (c) {
      tb.appendChild(el('tr', {}, [
        el('td', { text: c.cell === null ? 'score' : String(c.cell) }), el('td', { class: 'num', text: num(c.original) }), el('td', { class: 'num', text: num(c.new) }),
        el('td', { class: 'num', text: c.relDiff === null ? '–' : (100 * c.relDiff).toFixed(2) + '%' }),
        el('td', {}, [el('span', { class: 'badge ' + (c.ok ? 'reproduced' : 'not-reproduced'), text: c.ok ? 'ok' : 'differs' })]),
        el('td', { class: 'reason', text: c.context || '' })
      ]));
    });
    t.appendChild(tb);
    return t;
  }

  /**
   * The review page of a notebook is served by `nbmodernize review` (a local server with a token),
   * so a report opened from disk links to it by the command, with the notebook's dir resolved
   * against where this report lies.
   */
  function reviewHint(dir) {
    var base = location.protocol === 'file:' ? decodeURIComponent(location.pathname.replace(/[^/]*$/, '')) : '';
    var cmd = 'nbmodernize review ' + JSON.stringify(base + dir).slice(1, -1);
    return el('p', { class: 'review-hint' }, [
      el('span', { class: 'muted', text: 'Accept or reject these changes, re-run and write the notebook: ' }),
      el('code', { class: 'review-cmd', text: cmd }),
    ]);
  }

  var current = null, tab = 'diff';
  function renderDetailBody() {
    var n = current, d = DETAILS[n.id] || { diff: '', diffKind: 'none', trajectory: [], comparisons: [] };
    var body = document.getElementById('detail-body');
    body.textContent = '';
    var links = el('div', { class: 'links' });
    var LINKS = { notebook: 'executed notebook', runResult: 'run result', report: 'report.json', trajectory: 'trajectory.jsonl', diff: 'changes.diff', drift: 'output drift', edits: 'edits.jsonl' };
    entries(n.artifacts).forEach(function (e) { if (e[0] !== 'dir') links.appendChild(el('a', { href: e[1], text: LINKS[e[0]] || e[0] })); });
    body.appendChild(links);
    if (S.audit.mode === 'fix' && n.artifacts.dir && n.artifacts.diff) body.appendChild(reviewHint(n.artifacts.dir));
    if (tab === 'diff') {
      if (!d.diff) body.appendChild(el('div', { class: 'empty', text: d.diffTruncated ? 'too large to embed: open the diff file above' : n.verdict === 'failed' && n.before === 'failed' ? 'not evaluated: ' + n.reason : 'no differences to show' }));
      else {
        body.appendChild(el('p', { class: 'muted', text: d.diffKind === 'changes' ? 'Code changes made by the modernization (original left, modernized right).' : 'Outputs of the original run (left) against this run (right), for the cells that differ.' }));
        body.appendChild(sideBySide(d.diff, d.diffKind === 'changes' ? ['original', 'modernized'] : ['original run (stored outputs)', 'this run']));
        if (d.diffTruncated) body.appendChild(el('p', { class: 'muted', text: 'diff truncated; the full file is linked above' }));
      }
    } else if (tab === 'trajectory') {
      if (!d.trajectory.length) body.appendChild(el('div', { class: 'empty', text: 'no trajectory recorded' }));
      else body.appendChild(trajectory(d.trajectory));
    } else body.appendChild(valuesTable(d.comparisons || []));
  }

  function openDetail(n) {
    current = n;
    tab = 'diff';
    document.getElementById('detail-title').textContent = n.id;
    var sub = document.getElementById('detail-sub');
    sub.textContent = '';
    sub.appendChild(el('span', { class: 'badge ' + n.verdict, text: n.verdict }));
    sub.appendChild(document.createTextNode(' ' + n.reason + (n.error ? ' — cell ' + n.error.cell + ': ' + n.error.ename + ': ' + n.error.evalue : '') + (n.taxonomy ? ' [' + n.taxonomy.exceptionClass + ' · ' + causeLabel(n.taxonomy.cause) + ']' : '')));
    selectTab('diff');
    var d = document.getElementById('detail');
    d.hidden = false;
    document.getElementById('detail-close').focus();
  }
  function selectTab(t) {
    tab = t;
    document.querySelectorAll('.tabs button').forEach(function (b) { b.setAttribute('aria-selected', String(b.getAttribute('data-tab') === t)); });
    renderDetailBody();
  }
  function closeDetail() { document.getElementById('detail').hidden = true; current = null; }

  function wireDetail() {
    document.getElementById('detail-close').addEventListener('click', closeDetail);
    document.getElementById('detail').addEventListener('click', function (e) { if (e.target.id === 'detail') closeDetail(); });
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && current) closeDetail(); });
    document.querySelectorAll('.tabs button').forEach(function (b) { b.addEventListener('click', function () { selectTab(b.getAttribute('data-tab')); }); });
  }

  renderHeadline();
  renderCharts();
  renderTable();
  wireDetail();
})();
