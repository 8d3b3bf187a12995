/*
 * The review page: the notebook as cells, changed cells side by side (word-level), each change
 * with its source, trigger, decision and dependents, outputs before/after with drifted numbers
 * marked. Talks only to the server that served it (same origin, the token from its own URL).
 * Keys: j/k next/previous change, a/r accept/reject the focused change.
 */
(function () {
  'use strict';
  var TOKEN = new URLSearchParams(location.search).get('t') || '';
  var view = null;
  var focusIndex = -1;
  var busy = false;
  /** Re-run waits for the event stream: its progress and verdict come only that way. */
  var connected = false;

  function api(p) { return p + (p.indexOf('?') < 0 ? '?' : '&') + 't=' + encodeURIComponent(TOKEN); }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }

  function setStatus(text, isError) {
    var s = document.getElementById('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
  }

  function post(p, body) {
    return fetch(api(p), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || r.statusText); return j; }); });
  }

  // ---------------------------------------------------------------- rendering
  /** Word segments -> one side of a side-by-side: kept text plus this side's own words highlighted. */
  function side(words, keep) {
    var pre = el('pre', { class: 'code' });
    words.forEach(function (w) {
      if (w.op === '=') pre.appendChild(document.createTextNode(w.text));
      else if (w.op === keep) pre.appendChild(el('span', { class: keep === '-' ? 'w-del' : 'w-add', text: w.text }));
    });
    return pre;
  }

  var NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
  function near(a, b) { return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)); }
  /** Output text with the numbers the oracle found drifted marked. */
  function outputPre(text, values) {
    if (!(text || '').trim()) return el('pre', { class: 'out muted', text: '(no output)' });
    var pre = el('pre', { class: 'out' });
    var last = 0;
    var m;
    NUMBER.lastIndex = 0;
    while ((m = NUMBER.exec(text || ''))) {
      var v = Number(m[0]);
      if (!values.some(function (x) { return x !== null && near(x, v); })) continue;
      pre.appendChild(document.createTextNode(text.slice(last, m.index)));
      pre.appendChild(el('mark', { class: 'drift', title: 'drifted beyond tolerance', text: m[0] }));
      last = m.index + m[0].length;
    }
    pre.appendChild(document.createTextNode((text || '').slice(last)));
    return pre;
  }

  function changeById(id) { return view.changes.filter(function (c) { return c.id === id; })[0]; }

  var WHY = { 'same-cell': 'made on top of it in the same cell', 'same-fix': 'part of the same fix', 'found-after': 'found by a later run that got past it' };

  function sourceLinks(c) {
    if (c.sourceKind === 'llm') return [el('span', { class: 'source', text: 'model ' + c.source })];
    return c.rules.map(function (r) {
      var label = (r.code ? r.code + ' ' : '') + r.id;
      if (!r.library || !r.code) return el('span', { class: 'source', text: label });
      return el('a', { class: 'source rule', href: api('/rules/' + r.library + '.md') + '#' + r.code.toLowerCase(), target: '_blank', rel: 'noopener', text: label });
    });
  }

  function renderChange(c) {
    var rejected = c.decision === 'rejected';
    var art = el('article', { class: 'change' + (rejected ? ' is-rejected' : ''), 'data-id': c.id, tabindex: '-1' });
    var accept = el('button', { type: 'button', class: 'accept', 'aria-pressed': String(!rejected), text: 'Accept' });
    var reject = el('button', { type: 'button', class: 'reject', 'aria-pressed': String(rejected), text: 'Reject' });
    accept.addEventListener('click', function () { decide([c.id], 'accepted'); });
    reject.addEventListener('click', function () { decide([c.id], 'rejected'); });
    art.appendChild(el('header', {}, [
      el('strong', { text: c.id }),
      el('span', { class: 'badge fixtype', text: c.fixType }),
      el('span', { class: 'sources' }, sourceLinks(c)),
      el('span', { class: 'muted', text: c.step === 0 ? 'static pass' : 'fix ' + c.step }),
      el('span', { class: 'grow' }),
      el('span', { class: 'badge effect ' + c.effect, text: c.effect }),
      accept, reject,
    ]));
    var why = c.error ? c.error.ename + ': ' + c.error.evalue : c.trigger;
    art.appendChild(el('p', { class: 'why' }, [el('span', { class: 'muted', text: 'triggered by: ' }), el('span', { class: 'trigger', text: why })]));
    if (c.effect === 'blocked') art.appendChild(el('p', { class: 'deps', text: 'Accepted but not applied: an earlier change of this cell was rejected and this edit no longer fits.' }));
    if (rejected && c.dependents.length) {
      var list = el('ul', {}, c.dependents.map(function (d) {
        var o = changeById(d.id);
        return el('li', { 'data-dep': d.id }, [el('a', { href: '#change-' + d.id, text: d.id }), ' (' + (o ? o.source + ', cell ' + o.cell : '') + ') — ' + WHY[d.why] + (o ? '; now ' + o.effect : '')]);
      }));
      art.appendChild(el('div', { class: 'deps' }, [el('strong', { text: 'Depends on this change:' }), list]));
    }
    var words = el('div', { class: 'sbs' }, [side(c.words, '-'), side(c.words, '+')]);
    art.appendChild(words);
    if (c.llm) {
      if (c.llm.prompt) art.appendChild(el('details', {}, [el('summary', { text: 'prompt (what the model was shown)' }), el('pre', { text: c.llm.prompt })]));
      c.llm.replies.forEach(function (r, i) { art.appendChild(el('details', {}, [el('summary', { text: 'reply ' + (i + 1) }), el('pre', { text: r })])); });
    }
    art.id = 'change-' + c.id;
    return art;
  }

  function renderCell(cell) {
    var changed = cell.changes.length > 0;
    var sec = el('section', { class: 'cell' + (changed ? ' changed' : ''), id: 'cell-' + cell.index, 'data-index': String(cell.index) });
    var head = el('header', {}, [el('span', {}, [el('span', { class: 'title', text: 'cell ' + cell.index }), el('span', { class: 'muted', text: ' ' + cell.type }), el('span', { class: 'run-status muted' })])]);
    if (changed) {
      var ids = cell.changes;
      var acceptAll = el('button', { type: 'button', class: 'cell-accept', text: 'Accept cell' });
      var rejectAll = el('button', { type: 'button', class: 'cell-reject', text: 'Reject cell' });
      acceptAll.addEventListener('click', function () { decide(ids, 'accepted'); });
      rejectAll.addEventListener('click', function () { decide(ids, 'rejected'); });
      head.appendChild(el('span', { class: 'actions' }, [acceptAll, rejectAll]));
    }
    sec.appendChild(head);
    if (changed) {
      sec.appendChild(el('div', { class: 'sbs cell-diff' }, [
        el('div', {}, [el('h4', { text: 'original' }), side(cell.diff, '-')]),
        el('div', {}, [el('h4', { text: 'as decided' }), side(cell.diff, '+')]),
      ]));
      cell.changes.forEach(function (id) { sec.appendChild(renderChange(changeById(id))); });
    } else {
      sec.appendChild(el('div', { class: cell.type === 'markdown' ? 'md' : '' }, [el('pre', { class: 'code', text: cell.source })]));
    }
    if (cell.type === 'code' && (cell.outputsBefore || cell.outputsAfter !== undefined)) {
      var after = cell.outputsAfter === undefined ? el('pre', { class: 'out muted', text: '(not run)' })
        : outputPre(cell.outputsAfter, cell.drift.map(function (d) { return d.new; }));
      sec.appendChild(el('div', { class: 'outputs' }, [
        el('div', { class: 'before' }, [el('h4', { text: 'outputs before (stored)' }), outputPre(cell.outputsBefore, cell.drift.map(function (d) { return d.original; }))]),
        el('div', { class: 'after' }, [el('h4', { text: 'outputs after (' + (view.run && view.run.from === 'review' ? 'review re-run' : 'final run') + ')' }, cell.outputsCurrent ? [] : [el('span', { class: 'stale', text: ' — of other code: re-run to update' })]), after]),
      ]));
    }
    return sec;
  }

  function render(v) {
    view = v;
    document.getElementById('title').textContent = 'Review: ' + v.name;
    document.getElementById('meta').textContent = v.original + ' → ' + v.outDir;
    var badge = document.getElementById('verdict');
    // Without a final run (modernize stopped before one), its verdict is all there is until a re-run.
    var verdict = v.run ? v.run.verdict : v.modernize.verdict;
    badge.textContent = verdict + (v.run ? (v.run.current ? '' : ' (before these decisions)') : ' (no final run)');
    badge.className = 'badge ' + verdict;
    document.getElementById('reason').textContent = v.run ? (v.run.from === 'review' ? 'review re-run: ' : 'modernize final run: ') + v.run.reason
      : 'modernize stopped without a final run: ' + v.modernize.reason + ' — re-run to see the outputs of the code as decided';
    var rejected = v.changes.filter(function (c) { return c.decision === 'rejected'; }).length;
    document.getElementById('counts').textContent = v.changes.length + ' changes: ' + (v.changes.length - rejected) + ' accepted, ' + rejected + ' rejected';
    var cells = document.getElementById('cells');
    cells.textContent = '';
    v.cells.forEach(function (c) { cells.appendChild(renderCell(c)); });
    setBusy(v.running);
    if (focusIndex >= 0) focusChange(focusIndex, false);
  }

  function setBusy(b) {
    busy = b;
    document.getElementById('write').disabled = b;
    document.getElementById('rerun').disabled = b || !connected || !(view && view.canRerun);
    Array.prototype.forEach.call(document.querySelectorAll('#cells button'), function (x) { x.disabled = b; });
  }

  // ---------------------------------------------------------------- actions
  function decide(ids, decision) {
    if (busy) return;
    post('/api/decide', { ids: ids, decision: decision }).then(function (v) {
      render(v);
      setStatus(ids.join(', ') + ' ' + decision);
    }).catch(function (e) { setStatus(e.message, true); });
  }

  function rerun() {
    var log = document.getElementById('runlog');
    log.textContent = '';
    log.hidden = false;
    post('/api/rerun').then(function () { setStatus('re-running in the fixed environment…'); }).catch(function (e) { setStatus(e.message, true); });
  }

  function write() {
    post('/api/write').then(function (r) {
      setStatus('wrote ' + r.notebook + ' and ' + r.record + (r.run && !r.run.current ? ' (outputs of changed cells left empty: re-run first to fill them)' : ''));
    }).catch(function (e) { setStatus(e.message, true); });
  }

  // ---------------------------------------------------------------- keyboard
  function changeEls() { return document.querySelectorAll('#cells article.change'); }
  function focusChange(i, scroll) {
    var all = changeEls();
    if (!all.length) return;
    focusIndex = Math.max(0, Math.min(all.length - 1, i));
    Array.prototype.forEach.call(all, function (x) { x.classList.remove('focused'); });
    var target = all[focusIndex];
    target.classList.add('focused');
    if (scroll !== false) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'center' });
    }
  }
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === 'j') focusChange(focusIndex + 1);
    else if (e.key === 'k') focusChange(focusIndex < 0 ? 0 : focusIndex - 1);
    else if ((e.key === 'a' || e.key === 'r') && focusIndex >= 0) {
      var id = changeEls()[focusIndex].getAttribute('data-id');
      decide([id], e.key === 'a' ? 'accepted' : 'rejected');
    } else return;
    e.preventDefault();
  });

  // ---------------------------------------------------------------- live run (server-sent events)
  function listen() {
    var es = new EventSource(api('/api/events'));
    es.addEventListener('open', function () { connected = true; setBusy(busy); });
    es.addEventListener('error', function () { connected = false; setBusy(busy); });
    es.addEventListener('run-start', function () {
      setBusy(true);
      var badge = document.getElementById('verdict');
      badge.textContent = 'running';
      badge.className = 'badge running';
    });
    es.addEventListener('cell', function (m) {
      var e = JSON.parse(m.data);
      document.getElementById('runlog').appendChild(el('li', { 'data-cell': String(e.index), text: 'cell ' + e.index + ': ' + e.status + (e.durationMs !== null ? ' ' + e.durationMs + ' ms' : '') + (e.error ? ' — ' + e.error.ename + ': ' + e.error.evalue : '') }));
      var s = document.querySelector('#cell-' + e.index + ' .run-status');
      if (s) s.textContent = ' · ran: ' + e.status;
      // The cell's new outputs as they come; drifted numbers are marked when the verdict arrives.
      var after = document.querySelector('#cell-' + e.index + ' .outputs .after');
      if (after) {
        after.textContent = '';
        after.appendChild(el('h4', { text: 'outputs after (re-running…)' }));
        after.appendChild(el('pre', { class: 'out live', text: e.outputs }));
      }
    });
    es.addEventListener('run-end', function (m) {
      var e = JSON.parse(m.data);
      render(e.view);
      setStatus('re-run finished: ' + e.view.run.verdict);
    });
    es.addEventListener('run-failed', function (m) {
      setBusy(false);
      setStatus('the re-run could not be done: ' + JSON.parse(m.data).message, true);
      if (view) render(view);
    });
  }

  document.getElementById('rerun').addEventListener('click', rerun);
  document.getElementById('write').addEventListener('click', write);
  fetch(api('/api/state')).then(function (r) { return r.json(); }).then(function (v) { render(v); listen(); }).catch(function (e) { setStatus(String(e), true); });
})();
