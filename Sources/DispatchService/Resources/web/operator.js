// The operator's console: the live map (taxis by state, waiting customers, zone queue lengths)
// from the admin event stream, the last hour's figures, the per-zone queue table, drivers
// (add, invalidate), the city's map and zones, and the planner's rain and strike conditions.
import { $, LiveStream, Session, clearProblems, connectionBadge, duration, h, showProblem } from './api.js';
import { CityMap, loadCity } from './map.js';
import { setUpSignIn } from './auth.js';

const session = new Session('admin');
const state = { map: null, stream: null, live: null, city: null };
const stateNames = { available: 'available', unavailable: 'unavailable', offered: 'offered', to_pickup: 'to pickup', on_ride: 'on ride' };

function renderLive(live) {
  state.live = live;
  $('#clock').textContent = `as of ${live.now.slice(11, 19)} UTC`;
  $('#fig-requests').textContent = live.last_hour.requests;
  $('#fig-served').textContent = live.last_hour.served;
  $('#fig-p90').textContent = live.last_hour.p90_wait_seconds === undefined ? '—' : duration(live.last_hour.p90_wait_seconds);
  $('#fig-taxis').textContent = live.taxis.length;
  $('#fig-waiting').textContent = live.waiting.length;
  state.map.setQueues(live.queue_lengths);
  state.map.setMarkers('taxis', live.taxis.map((t) => ({
    x: t.x, y: t.y, kind: t.status, id: t.driver, text: live.taxis.length <= 60 ? t.taxi_code : null,
    label: `${t.taxi_code}: ${stateNames[t.status] || t.status}`,
  })));
  state.map.setMarkers('customers', live.waiting.map((w) => ({
    x: w.x, y: w.y, kind: w.status, id: w.ride, label: `ride #${w.ride}: ${w.status}`,
  })));
  $('#taxis').replaceChildren(...live.taxis.slice(0, 200).map((t) => h('tr', { 'data-taxi': t.taxi_code },
    h('td', {}, t.taxi_code), h('td', {}, stateNames[t.status] || t.status), h('td', {}, t.zone ?? '—'),
    h('td', {}, t.ride ?? '—'), h('td', {}, `(${Math.round(t.x)}, ${Math.round(t.y)})`))));
  const queued = live.queue_lengths.map((n, zone) => ({ zone, n })).filter((q) => q.n > 0).sort((a, b) => b.n - a.n || a.zone - b.zone);
  $('#queues').replaceChildren(...(queued.length ? queued.map((q) => h('tr', { 'data-zone': q.zone }, h('td', {}, q.zone), h('td', {}, q.n)))
    : [h('tr', {}, h('td', { colspan: 2, class: 'muted' }, `No taxi queued in any of the ${live.queue_lengths.length} zones.`))]));
}

async function loadDrivers() {
  const { drivers } = await session.call('GET', '/v1/admin/drivers');
  $('#drivers').replaceChildren(...drivers.map((d) => h('tr', { 'data-driver': d.id },
    h('td', {}, d.name || d.email), h('td', {}, d.taxi_code || '—'), h('td', {}, d.licence || '—'),
    h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-label': `Invalidate ${d.name || d.email}`,
      onclick: () => invalidate(d) }, 'Invalidate')))));
}

async function invalidate(driver) {
  if (!confirm(`Invalidate ${driver.email}? Their sessions end and their password stops working.`)) return;
  try {
    await session.call('POST', `/v1/admin/drivers/${driver.id}/invalidate`);
    $('#drivers-message').textContent = `${driver.email}: credentials invalidated.`;
  } catch (error) { $('#drivers-message').textContent = error.message; }
}

function fillCity(city) {
  state.city = city;
  $('#city-width').value = city.width;
  $('#city-height').value = city.height;
  $('#city-zone').value = city.zone_side;
}

async function loadConditions() {
  const date = $('#cond-date').value;
  if (!date) return;
  const c = await session.call('GET', `/v1/admin/conditions/${date}`);
  $('#cond-rain').value = (c.rain_hours || []).join(', ');
  const strike = (c.strikes || [])[0];
  $('#cond-strike').checked = Boolean(strike);
  $('#cond-strike-from').value = strike?.from || '';
  $('#cond-strike-until').value = strike?.until || '';
}

async function start() {
  const city = await loadCity();
  fillCity(city);
  state.map = new CityMap($('#map'), city, { label: 'Live map of taxis by state and waiting customers' });
  $('#cond-date').value = new Date().toISOString().slice(0, 10);
  await Promise.all([loadDrivers(), loadConditions()]);
  state.stream?.close();
  state.stream = new LiveStream(session, '/v1/admin/events', {
    onState: (s) => connectionBadge($('#connection'), s),
    onEvent: (kind, data) => { if (kind === 'live') renderLive(data); },
  });
}

$('#new-driver').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  const body = Object.fromEntries(['name', 'email', 'password', 'licence', 'taxi_code'].map((k) => [k, form[k].value.trim()]));
  body.password = form.password.value;
  try {
    await session.call('POST', '/v1/admin/drivers', body);
    form.reset();
    $('#drivers-message').textContent = `Driver ${body.email} added.`;
    loadDrivers();
  } catch (error) { showProblem(form, error); }
});

$('#city').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  try {
    const city = await session.call('PUT', '/v1/admin/city', {
      width: Number(form.width.value), height: Number(form.height.value), zone_side: Number(form.zone_side.value) });
    fillCity(city);
    state.map = new CityMap($('#map'), city, { label: 'Live map of taxis by state and waiting customers' });
    if (state.live) renderLive(state.live);
  } catch (error) { showProblem(form, error); }
});

$('#cond-date').addEventListener('change', () => loadConditions().catch((e) => { $('#cond-message').textContent = e.message; }));
$('#conditions').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  const text = form.rain_hours.value.trim();
  const rain = text ? text.split(/[\s,]+/).filter(Boolean).map(Number) : [];
  const strikes = form.strike.checked ? [Object.fromEntries(Object.entries({
    from: form.strike_from.value.trim(), until: form.strike_until.value.trim() }).filter(([, v]) => v))] : [];
  try {
    await session.call('PUT', `/v1/admin/conditions/${form.date.value}`, { rain_hours: rain, strikes });
    $('#cond-message').textContent = `Conditions of ${form.date.value} saved.`;
  } catch (error) { showProblem(form, error); }
});

setUpSignIn(session, { onReady: () => start().catch((e) => { $('#clock').textContent = e.message; }),
  onSignedOut: () => state.stream?.close() });
