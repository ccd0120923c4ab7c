// The API client of the web console: bearer tokens per role (kept in sessionStorage, so each
// tab signs in on its own), RFC 9457 problems as ApiError, and server-sent events read with
// fetch (EventSource cannot send an Authorization header) that reconnect with Last-Event-ID.

/** A problem document from the API (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.title || 'network';
    this.field = problem.field || null;
  }
}

/** The session of one role ("customer", "driver", "admin") in this tab. */
export class Session {
  constructor(role) { this.role = role; this.key = `citysim.${role}`; }
  get token() { return this.state?.token || null; }
  get account() { return this.state?.account || null; }
  get state() {
    try { return JSON.parse(sessionStorage.getItem(this.key)); } catch { return null; }
  }
  save(session) { sessionStorage.setItem(this.key, JSON.stringify(session)); }
  clear() { sessionStorage.removeItem(this.key); }

  /** Calls the API; resolves to the JSON body (null for 204), rejects with ApiError. */
  async call(method, path, body) {
    const headers = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new ApiError(0, { title: 'network', detail: 'the service cannot be reached' });
    }
    if (response.status === 401 && this.token) this.clear();
    if (response.status === 204) return null;
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = null; }
    if (!response.ok) throw new ApiError(response.status, json || { detail: text || response.statusText });
    return json;
  }

  async login(email, password) {
    const session = await this.call('POST', '/v1/auth/login', { email, password });
    if (session.account.role !== this.role) {
      throw new ApiError(403, { title: 'forbidden', detail: `this page is for ${this.role} accounts; ${email} is a ${session.account.role}` });
    }
    this.save(session);
    return session;
  }

  async logout() {
    try { await this.call('DELETE', '/v1/auth/token'); } catch { /* the token may have expired */ }
    this.clear();
  }
}

/**
 * Server-sent events over fetch: calls onEvent(kind, data, id) for each frame and onState(state)
 * with "connecting", "open" or "lost". After a lost connection it waits (1 s, doubling to 15 s)
 * and reconnects sending Last-Event-ID. close() ends it. A stream the server ends normally
 * (a ride's stream after its last event) is reopened only when `reopen` (true, false, or a
 * function asked each time) says so.
 */
export class LiveStream {
  constructor(session, path, { onEvent, onState = () => {}, reopen = true } = {}) {
    Object.assign(this, { session, path, onEvent, onState, reopen });
    this.lastEventId = null;
    this.closed = false;
    this.delay = 1000;
    this.run();
  }

  close() { this.closed = true; this.controller?.abort(); }

  async run() {
    while (!this.closed) {
      this.onState('connecting');
      let ended = false;
      try {
        ended = await this.readOnce();
      } catch (error) {
        if (this.closed) return;
      }
      if (this.closed) return;
      const again = typeof this.reopen === 'function' ? this.reopen() : this.reopen;
      if (ended && !again) { this.onState('ended'); return; }
      this.onState('lost');
      await new Promise((resolve) => setTimeout(resolve, this.delay));
      this.delay = Math.min(this.delay * 2, 15000);
    }
  }

  /** One connection; true when the server ended the stream, throws when it broke. */
  async readOnce() {
    this.controller = new AbortController();
    const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${this.session.token}` };
    if (this.lastEventId !== null) headers['Last-Event-ID'] = this.lastEventId;
    const response = await fetch(this.path, { headers, signal: this.controller.signal, cache: 'no-store' });
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
    this.onState('open');
    this.delay = 1000;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        this.dispatch(block);
      }
    }
  }

  dispatch(block) {
    let kind = 'message', id = null, data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') kind = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data += (data ? '\n' : '') + value;
    }
    if (!data) return;
    if (id !== null) this.lastEventId = id;
    let json;
    try { json = JSON.parse(data); } catch { return; }
    this.onEvent(kind, json, id);
  }
}

// MARK: small DOM helpers shared by the pages

/** document.querySelector, throwing for a missing element (a page bug, not a user error). */
export function $(selector, root = document) {
  const element = root.querySelector(selector);
  if (!element) throw new Error(`missing element ${selector}`);
  return element;
}

/** Creates an element with attributes and children (strings become text nodes). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/**
 * Shows a problem on a form: next to the input whose data-field (or name) is the problem's
 * `field` (or whose data-codes lists its code), else in the form's [data-role=form-error].
 * The input gets aria-invalid and aria-describedby so screen readers read the message.
 */
export function showProblem(form, error) {
  clearProblems(form);
  const message = error instanceof ApiError ? error.message : String(error.message || error);
  let input = null;
  if (error.field) {
    const top = error.field.split(/[.[]/)[0];
    input = form.querySelector(`[data-field="${error.field}"]`) || form.querySelector(`[data-field="${top}"]`)
      || form.querySelector(`[name="${top}"]`);
  }
  if (!input && error.code) input = form.querySelector(`[data-codes~="${error.code}"]`);
  if (input) {
    const note = h('p', { class: 'field-error', role: 'alert', id: `${input.id || input.name}-error` }, message);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', note.id);
    (input.closest('.field') || input.parentElement).append(note);
    input.focus();
  } else {
    const slot = form.querySelector('[data-role=form-error]');
    if (slot) { slot.textContent = message; slot.hidden = false; } else { alert(message); }
  }
}

export function clearProblems(form) {
  form.querySelectorAll('.field-error').forEach((note) => note.remove());
  form.querySelectorAll('[aria-invalid]').forEach((input) => {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  });
  const slot = form.querySelector('[data-role=form-error]');
  if (slot) { slot.textContent = ''; slot.hidden = true; }
}

/** "4 min 05 s" for a number of seconds. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined || !isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

export function money(amount) { return `${Number(amount || 0).toFixed(2)} €`; }

/** HH:MM (UTC, as the service's dates are) of an ISO date. */
export function clock(iso) {
  const d = new Date(iso);
  return isNaN(d) ? '—' : d.toISOString().slice(11, 16);
}

/** Sets the connection badge: connecting, open, lost, ended. */
export function connectionBadge(element, state) {
  const labels = { connecting: 'Connecting…', open: 'Live', lost: 'Connection lost — reconnecting', ended: 'Stream ended' };
  element.textContent = labels[state] || state;
  element.dataset.state = state;
}
