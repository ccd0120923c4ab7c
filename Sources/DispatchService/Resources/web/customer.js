// The customer's page: sign in or register, pick the pickup and destination on the map or by
// coordinates, see the ETA and the zone's queue (D14), request now or reserve (D11), follow the
// ride live (its event stream), cancel (D10), report (D13), and the list of past rides.
import { $, ApiError, LiveStream, Session, clearProblems, connectionBadge, duration, h, money, showProblem } from './api.js';
import { CityMap, loadCity } from './map.js';
import { setUpSignIn } from './auth.js';

const session = new Session('customer');
const OPEN = ['scheduled', 'pending', 'offered', 'accepted', 'picked_up'];
const state = { map: null, ride: null, stream: null, taxi: null };

const statusText = {
  scheduled: 'Reserved — a taxi is allocated before the meeting time',
  pending: 'Waiting for a taxi to become free',
  offered: 'Asking a taxi…',
  accepted: 'Your taxi is on the way',
  picked_up: 'On board, heading to the destination',
  completed: 'Arrived',
  rejected: 'No taxi available',
  cancelled: 'Cancelled',
  expired: 'No taxi accepted in time',
};

function point(prefix) {
  const x = $(`#${prefix}-x`).value.trim(), y = $(`#${prefix}-y`).value.trim();
  if (x === '' || y === '') return null;
  return { x: Number(x), y: Number(y) };
}

function drawPoints() {
  const items = [];
  const origin = point('origin'), destination = point('destination');
  if (origin && isFinite(origin.x) && isFinite(origin.y)) items.push({ ...origin, kind: 'origin', label: 'pickup point' });
  if (destination && isFinite(destination.x) && isFinite(destination.y)) items.push({ ...destination, kind: 'destination', label: 'destination' });
  state.map?.setMarkers('points', items);
  const taxi = state.taxi && state.ride && OPEN.includes(state.ride.status)
    ? [{ ...state.taxi, kind: 'taxi', label: `taxi ${state.ride.taxi_code || ''}`, text: state.ride.taxi_code }] : [];
  state.map?.setMarkers('taxis', taxi);
}

async function estimate() {
  const origin = point('origin');
  const note = $('#estimate');
  if (!origin || !isFinite(origin.x) || !isFinite(origin.y)) { note.textContent = 'Pick a pickup point to see the waiting time.'; return; }
  try {
    const [eta, queue] = await Promise.all([
      session.call('GET', `/v1/eta?x=${origin.x}&y=${origin.y}`),
      session.call('GET', `/v1/queue?x=${origin.x}&y=${origin.y}`),
    ]);
    const taxis = `${queue.length} ${queue.length === 1 ? 'taxi' : 'taxis'} waiting in zone ${queue.zone}`;
    note.textContent = eta.available ? `Nearest free taxi: about ${duration(eta.eta_seconds)} away · ${taxis}.`
      : `No taxi is free right now · ${taxis}.`;
  } catch (error) {
    note.textContent = error instanceof ApiError ? error.message : 'The estimate is not available.';
  }
}

function pick(p) {
  const which = document.querySelector('input[name=pick]:checked').value;
  $(`#${which}-x`).value = p.x;
  $(`#${which}-y`).value = p.y;
  if (which === 'origin') {
    document.querySelector('input[name=pick][value=destination]').checked = true;
    estimate();
  }
  drawPoints();
}

function renderRide() {
  const ride = state.ride;
  const panel = $('#ride-panel');
  if (!ride) { panel.hidden = true; return; }
  panel.hidden = false;
  $('#ride-status').textContent = statusText[ride.status] || ride.status;
  $('#ride-status').dataset.status = ride.status;
  const when = ride.meeting_time ? ` Meeting time ${ride.meeting_time.slice(0, 16).replace('T', ' ')} UTC.` : '';
  $('#ride-taxi').textContent = ride.taxi_code
    ? `Taxi ${ride.taxi_code}${ride.eta_seconds !== undefined && ride.status === 'accepted' ? `, arriving in about ${duration(ride.eta_seconds)}` : ''}.${when}`
    : `Ride #${ride.id} from (${ride.origin.x}, ${ride.origin.y}) to (${ride.destination.x}, ${ride.destination.y}).${when}`;
  $('#ride-fare').textContent = ride.fare_charged > 0 ? `Fare: ${money(ride.fare_charged)}` : '';
  $('#cancel-ride').hidden = !OPEN.includes(ride.status) || ride.status === 'picked_up';
  $('#report-ride').hidden = ride.status !== 'completed';
  $('#order-button').disabled = OPEN.includes(ride.status);
  drawPoints();
}

function follow(ride) {
  state.stream?.close();
  state.ride = ride;
  state.taxi = null;
  $('#ride-message').textContent = '';
  renderRide();
  if (!OPEN.includes(ride.status)) return;
  state.stream = new LiveStream(session, `/v1/rides/${ride.id}/events`, {
    reopen: () => OPEN.includes(state.ride?.status),  // ended by the server before the ride ended: a restart
    onState: (s) => connectionBadge($('#ride-connection'), s),
    onEvent: (kind, data) => {
      const current = state.ride;
      switch (kind) {
        case 'status': state.ride = data; break;
        case 'taxi_assigned': case 'taxi_reassigned':
          Object.assign(current, { status: 'accepted', taxi_code: data.taxi_code, eta_seconds: data.eta_seconds });
          if (data.x !== undefined) state.taxi = { x: data.x, y: data.y };
          break;
        case 'taxi_position': state.taxi = { x: data.x, y: data.y }; break;
        case 'picked_up': current.status = 'picked_up'; break;
        case 'waiting_for_taxi': current.status = 'pending'; break;
        case 'reservation_confirmed': $('#ride-message').textContent = 'Reservation confirmed.'; break;
        case 'fare_charged': current.fare_charged = (current.fare_charged || 0) + data.amount; break;
        case 'ride_completed': current.status = 'completed'; break;
        case 'no_taxi_available': current.status = 'rejected'; break;
        case 'expired': current.status = 'expired'; break;
        case 'cancelled': current.status = 'cancelled'; break;
        default: break;
      }
      renderRide();
      if (kind !== 'taxi_position') loadHistory().catch(() => {});
    },
  });
}

async function loadHistory() {
  const { rides } = await session.call('GET', '/v1/rides');
  $('#history').replaceChildren(...rides.slice().reverse().map((ride) => h('tr', { 'data-ride': ride.id },
    h('td', {}, ride.id), h('td', {}, ride.kind), h('td', {}, ride.status.replace('_', ' ')),
    h('td', {}, ride.taxi_code || '—'), h('td', {}, ride.fare_charged > 0 ? money(ride.fare_charged) : '—'))));
  return rides;
}

async function order(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblems(form);
  const body = { origin: point('origin'), destination: point('destination') };
  const missing = !body.origin ? 'origin' : !body.destination ? 'destination' : null;
  if (missing) {
    showProblem(form, { field: missing, message: `choose the ${missing === 'origin' ? 'pickup point' : 'destination'} on the map or type its coordinates` });
    return;
  }
  const later = form.when.value === 'later';
  try {
    let ride;
    if (later) {
      const value = form.meeting_time.value;
      if (!value) { showProblem(form, { field: 'meeting_time', message: 'choose the meeting time' }); return; }
      ride = await session.call('POST', '/v1/reservations', { ...body, meeting_time: new Date(`${value}Z`).toISOString() });
    } else {
      ride = await session.call('POST', '/v1/rides', body);
    }
    follow(ride);
    if (ride.status === 'rejected') $('#ride-message').textContent = 'No taxi is on duty nearby (D7). Try again in a few minutes.';
    loadHistory();
  } catch (error) { showProblem(form, error); }
}

async function start() {
  state.map = new CityMap($('#map'), await loadCity(), { label: 'City map: click to choose the pickup point, then the destination', onPick: pick });
  const rides = await loadHistory();
  const open = rides.filter((r) => OPEN.includes(r.status)).pop();
  if (open) follow(open); else { state.ride = null; renderRide(); }
}

for (const id of ['origin-x', 'origin-y', 'destination-x', 'destination-y']) {
  $(`#${id}`).addEventListener('change', () => { drawPoints(); if (id.startsWith('origin')) estimate(); });
}
document.querySelectorAll('input[name=when]').forEach((radio) => radio.addEventListener('change', () => {
  const later = document.querySelector('input[name=when]:checked').value === 'later';
  $('#meeting-field').hidden = !later;
  $('#order-button').textContent = later ? 'Reserve a taxi' : 'Request a taxi';
  if (later && !$('#meeting-time').value) {
    const t = new Date(Date.now() + 3 * 3600e3);
    t.setUTCMinutes(0, 0, 0);
    $('#meeting-time').value = t.toISOString().slice(0, 16);
  }
}));
$('#order').addEventListener('submit', order);
$('#cancel-ride').addEventListener('click', async () => {
  try {
    state.ride = await session.call('DELETE', `/v1/rides/${state.ride.id}`);
    state.stream?.close();
    renderRide();
    loadHistory();
  } catch (error) { $('#ride-message').textContent = error.message; }
});
$('#report-ride').addEventListener('click', async () => {
  try {
    const report = await session.call('POST', `/v1/rides/${state.ride.id}/report`);
    $('#ride-message').textContent = `Report recorded; the driver has ${report.count} bad evaluation(s) (D13).`;
  } catch (error) { $('#ride-message').textContent = error.message; }
});

setUpSignIn(session, { onReady: () => start().catch((e) => { $('#estimate').textContent = e.message; }),
  onSignedOut: () => { state.stream?.close(); state.ride = null; } });
