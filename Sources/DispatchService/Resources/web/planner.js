// The trip planner's page (Travlendar+): the day's timeline with its trips, legs and means,
// appointments (add, edit, cancel, delete), warnings for overlaps and unreachable appointments
// with the choice of the primary one, preferences, and booking the day's taxi legs.
import { $, ApiError, Session, clearProblems, clock, duration, h, money, showProblem } from './api.js';
import { CityMap, loadCity } from './map.js';
import { setUpSignIn } from './auth.js';

const session = new Session('customer');
const state = { map: null, appointments: [], profile: null };
const means = { walk: 'walk', bike: 'own bike', car: 'own car', transit: 'public transport', 'bike-sharing': 'shared bike', 'car-sharing': 'shared car', taxi: 'taxi' };

const date = () => $('#day').value;

function drawPlaces() {
  const items = state.appointments.map((a) => ({ ...a.place, kind: 'destination', id: a.id, label: a.title, text: a.title }));
  if (state.profile?.home) items.push({ ...state.profile.home, kind: 'origin', label: 'home', text: 'home' });
  state.map?.setMarkers('points', items);
}

async function loadProfile() {
  const p = state.profile = await session.call('GET', '/v1/planner/preferences');
  const form = $('#preferences');
  form.home_x.value = p.home?.x ?? '';
  form.home_y.value = p.home?.y ?? '';
  form.criterion.value = p.criterion;
  form.max_walk_m.value = p.max_walk_m;
  for (const key of ['owns_bike', 'owns_car', 'season_pass', 'no_bike_in_rain']) form[key].checked = Boolean(p[key]);
}

async function loadDay() {
  const message = $('#day-message');
  message.textContent = '';
  const { appointments } = await session.call('GET', `/v1/planner/appointments?date=${date()}`);
  state.appointments = appointments;
  drawPlaces();
  let day = null;
  try {
    day = await session.call('GET', `/v1/planner/days/${date()}`);
  } catch (error) {
    message.textContent = error instanceof ApiError && error.code === 'home-not-set'
      ? 'Set your home in the preferences to plan the day.' : error.message;
  }
  renderAppointments(day);
  renderDay(day);
}

function appointmentWhen(a) {
  return a.start ? `${a.start}–${a.end}` : `${a.duration_min} min within ${a.window.start}–${a.window.end}`;
}

function renderAppointments(day) {
  const states = new Map((day?.occurrences || []).map((o) => [o.appointment_id, o.state]));
  $('#appointments').replaceChildren(...state.appointments.map((a) => h('tr', { 'data-appointment': a.id },
    h('td', {}, a.title), h('td', {}, appointmentWhen(a)), h('td', {}, states.get(a.id) || a.state),
    h('td', {}, h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Edit ${a.title}`, onclick: () => edit(a) }, 'Edit'),
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Cancel ${a.title}`, onclick: () => act('POST', `/v1/planner/appointments/${a.id}/cancel`) }, 'Cancel'),
      h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${a.title}`, onclick: () => act('DELETE', `/v1/planner/appointments/${a.id}`) }, 'Delete'))))));
}

function renderDay(day) {
  const titles = new Map(state.appointments.map((a) => [a.id, a.title]));
  const warnings = day?.warnings || [];
  $('#warnings-box').hidden = warnings.length === 0;
  $('#warnings').replaceChildren(...warnings.map((w) => h('li', { class: 'notice', 'data-kind': w.kind },
    h('strong', {}, w.kind === 'overlap' ? 'Overlap: ' : w.kind === 'unreachable' ? 'Unreachable: ' : `${w.kind}: `), w.message,
    w.kind === 'overlap' ? h('div', { class: 'row' }, w.appointment_ids.map((id) => h('button', {
      type: 'button', class: 'secondary', 'data-primary': id,
      onclick: () => act('POST', `/v1/planner/days/${date()}/primary`, { appointment_id: id }),
    }, `Keep “${titles.get(id) || `#${id}`}” as primary`))) : null)));
  $('#timeline').replaceChildren(...(day?.steps || []).map((step) => {
    if (step.kind === 'activity') {
      return h('li', { class: 'activity' }, h('strong', {}, `${clock(step.start)}–${clock(step.end)} ${step.title}`));
    }
    const trip = step.trip;
    const mainMeans = [...new Set(trip.legs.map((l) => means[l.means] || l.means))].join(' + ');
    return h('li', { class: 'trip' },
      `${clock(step.start)}–${clock(step.end)} → ${step.title || 'home'} by ${mainMeans}`,
      h('span', { class: 'muted' }, ` (${duration((new Date(trip.arrival) - new Date(trip.departure)) / 1000)}, ${(trip.distance_m / 1000).toFixed(1)} km, ${money(trip.cost_eur)})`),
      h('ul', { class: 'legs' }, trip.legs.map((leg) => h('li', { 'data-means': leg.means },
        `${clock(leg.departure)} ${means[leg.means] || leg.means}: ${leg.detail || ''} ${(leg.distance_m / 1000).toFixed(1)} km`))));
  }));
  $('#totals').textContent = day ? `Travel ${duration(day.totals.travel_s)}, ${(day.totals.distance_m / 1000).toFixed(1)} km, ${money(day.totals.cost_eur)}, ${Math.round(day.totals.co2_g)} g CO₂ (${day.criterion}).` : '';
}

async function act(method, path, body) {
  try {
    await session.call(method, path, body);
    await loadDay();
  } catch (error) { $('#day-message').textContent = error.message; }
}

function edit(a) {
  const form = $('#appointment');
  clearProblems(form);
  form.id.value = a.id;
  form.title.value = a.title;
  form.x.value = a.place.x; form.y.value = a.place.y;
  const flexible = Boolean(a.window);
  form.kind.value = flexible ? 'flexible' : 'fixed';
  form.start.value = a.start || ''; form.end.value = a.end || '';
  form.window_start.value = a.window?.start || ''; form.window_end.value = a.window?.end || '';
  form.duration_min.value = a.duration_min || '';
  showKind();
  $('#appointment-title').textContent = `Edit “${a.title}”`;
  $('#save-appointment').textContent = 'Save changes';
  $('#new-appointment').hidden = false;
  form.title.focus();
}

function resetAppointment() {
  const form = $('#appointment');
  form.reset();
  form.id.value = '';
  clearProblems(form);
  showKind();
  $('#appointment-title').textContent = 'New appointment';
  $('#save-appointment').textContent = 'Add appointment';
  $('#new-appointment').hidden = true;
}

function showKind() {
  const flexible = $('#appointment').kind.value === 'flexible';
  $('#fixed-fields').hidden = flexible;
  $('#flexible-fields').hidden = !flexible;
}

const number = (text) => (text.trim() === '' ? undefined : Number(text));

$('#appointment').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  const body = { title: form.title.value.trim(), date: date(), place: { x: number(form.x.value), y: number(form.y.value) } };
  if (body.place.x === undefined || body.place.y === undefined) delete body.place;
  if (form.kind.value === 'fixed') Object.assign(body, { start: form.start.value.trim(), end: form.end.value.trim() });
  else Object.assign(body, { window: { start: form.window_start.value.trim(), end: form.window_end.value.trim() }, duration_min: number(form.duration_min.value) });
  try {
    if (form.id.value) await session.call('PUT', `/v1/planner/appointments/${form.id.value}`, body);
    else await session.call('POST', '/v1/planner/appointments', body);
    resetAppointment();
    await loadDay();
  } catch (error) { showProblem(form, error); }
});
$('#new-appointment').addEventListener('click', resetAppointment);
document.querySelectorAll('input[name=kind]').forEach((r) => r.addEventListener('change', showKind));

$('#preferences').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  const body = { ...state.profile, criterion: form.criterion.value, max_walk_m: number(form.max_walk_m.value) };
  for (const key of ['owns_bike', 'owns_car', 'season_pass', 'no_bike_in_rain']) body[key] = form[key].checked;
  const x = number(form.home_x.value), y = number(form.home_y.value);
  if (x !== undefined && y !== undefined) body.home = { x, y }; else delete body.home;
  try {
    state.profile = await session.call('PUT', '/v1/planner/preferences', body);
    await loadDay();
  } catch (error) { showProblem(form, error); }
});

$('#book').addEventListener('click', async () => {
  try {
    const { bookings } = await session.call('POST', `/v1/planner/days/${date()}/book`);
    $('#bookings').replaceChildren(...bookings.map((b) => h('li', {},
      `${clock(b.departure)} taxi: ${b.outcome}${b.ride_id ? ` (ride #${b.ride_id})` : ''}${b.reason ? ` — ${b.reason}` : ''}`)));
    $('#day-message').textContent = bookings.length ? `${bookings.length} taxi leg(s) handled.` : 'The plan has no taxi legs to book.';
  } catch (error) { $('#day-message').textContent = error.message; }
});
$('#day').addEventListener('change', () => loadDay().catch((e) => { $('#day-message').textContent = e.message; }));

async function start() {
  state.map = new CityMap($('#map'), await loadCity(), {
    label: 'City map: click to set the appointment place',
    onPick: (p) => { const f = $('#appointment'); f.x.value = p.x; f.y.value = p.y; },
  });
  if (!$('#day').value) $('#day').value = new Date().toISOString().slice(0, 10);
  await loadProfile();
  await loadDay();
}

setUpSignIn(session, { onReady: () => start().catch((e) => { $('#day-message').textContent = e.message; }) });
