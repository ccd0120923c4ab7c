// The driver's page (phone first): start and end the shift at a position, availability (D2),
// the own zone and place in its queue, offers with their 60 s countdown (D3–D5), pickup and
// drop-off, and the fare. Offers and fares arrive over the driver's event stream.
import { $, LiveStream, Session, clearProblems, connectionBadge, money, showProblem } from './api.js';
import { CityMap, loadCity } from './map.js';
import { setUpSignIn } from './auth.js';

const session = new Session('driver');
const state = { me: null, map: null, stream: null, ticker: null };

const statusText = {
  off_shift: 'Off shift', unavailable: 'On shift, not taking rides', available: 'Available',
  offered: 'Ride offered', to_pickup: 'Driving to the pickup point', on_ride: 'Carrying a customer',
};

function ordinal(n) {
  if (n % 100 >= 11 && n % 100 <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th'}`;
}
const where = (p) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;

function render() {
  const me = state.me;
  if (!me) return;
  $('#status').textContent = statusText[me.status] || me.status;
  $('#status').dataset.status = me.status;
  $('#queue-place').textContent = me.status === 'available' && me.queue_position
    ? `Zone ${me.zone}: you are ${ordinal(me.queue_position)} of ${me.queue_length} in the queue.`
    : me.status === 'available' ? `Zone ${me.zone}.` : '';
  const onShift = me.status !== 'off_shift';
  $('#start-shift').hidden = onShift;
  $('#end-shift').hidden = !onShift;
  $('#move').hidden = !onShift;
  const box = $('#available');
  box.checked = me.status === 'available';
  box.disabled = !['available', 'unavailable'].includes(me.status);
  if (document.activeElement?.form !== $('#shift-form') && onShift) {
    $('#pos-x').value = Math.round(me.position.x);
    $('#pos-y').value = Math.round(me.position.y);
  }

  const offered = me.status === 'offered' && me.offer;
  $('#offer-panel').hidden = !offered;
  clearInterval(state.ticker);
  if (offered) {
    $('#offer-text').textContent = `Ride #${me.offer.ride}: pick up at ${where(me.pickup)}, drive to ${where(me.destination)}.`;
    const expires = new Date(me.offer.expires_at).getTime();
    const tick = () => {
      const left = Math.max(0, Math.ceil((expires - Date.now()) / 1000));
      $('#offer-countdown').textContent = left;
      if (left === 0) { clearInterval(state.ticker); refresh(); }
    };
    tick();
    state.ticker = setInterval(tick, 250);
  }

  const riding = ['to_pickup', 'on_ride'].includes(me.status);
  $('#ride-panel').hidden = !riding;
  if (riding) {
    $('#ride-text').textContent = me.status === 'to_pickup'
      ? `Ride #${me.ride}: pick the customer up at ${where(me.pickup)}.`
      : `Ride #${me.ride}: drive to ${where(me.destination)}.`;
    $('#drive-to-pickup').hidden = me.status !== 'to_pickup';
    $('#pickup').hidden = me.status !== 'to_pickup';
    $('#dropoff').hidden = me.status !== 'on_ride';
  }
  const markers = [];
  if (me.pickup && me.status !== 'on_ride') markers.push({ ...me.pickup, kind: 'origin', label: 'pickup point' });
  if (me.destination) markers.push({ ...me.destination, kind: 'destination', label: 'destination' });
  state.map?.setMarkers('points', markers);
  state.map?.setMarkers('taxis', onShift ? [{ ...me.position, kind: 'taxi', label: `you, ${me.taxi_code}`, text: me.taxi_code }] : []);
}

async function refresh() {
  state.me = await session.call('GET', '/v1/driver');
  render();
}

/** Runs an action that answers with the driver, showing its problem on the shift form. */
async function act(method, path, body) {
  const form = $('#shift-form');
  clearProblems(form);
  try {
    state.me = await session.call(method, path, body);
    render();
  } catch (error) {
    showProblem(form, error);
    refresh().catch(() => {});
  }
}

function typedPosition() { return { x: Number($('#pos-x').value), y: Number($('#pos-y').value) }; }

async function start() {
  state.map = new CityMap($('#map'), await loadCity(), {
    label: 'City map: click to set your position',
    onPick: (p) => {
      $('#pos-x').value = p.x; $('#pos-y').value = p.y;
      if (state.me && state.me.status !== 'off_shift') act('PUT', '/v1/driver/position', p);
    },
  });
  await refresh();
  state.stream?.close();
  state.stream = new LiveStream(session, '/v1/driver/events', {
    onState: (s) => { connectionBadge($('#connection'), s); if (s === 'open') refresh().catch(() => {}); },
    onEvent: (kind, data) => {
      if (kind === 'fare_charged') {
        const fare = $('#fare');
        fare.textContent = `Ride #${data.ride}: fare ${money(data.amount)} charged.`;
        fare.hidden = false;
      }
      if (kind === 'offer') $('#fare').hidden = true;
      refresh().catch(() => {});
    },
  });
}

$('#shift-form').addEventListener('submit', (event) => {
  event.preventDefault();
  act('POST', '/v1/driver/shift', { action: 'start', position: typedPosition() });
});
$('#end-shift').addEventListener('click', () => act('POST', '/v1/driver/shift', { action: 'end' }));
$('#move').addEventListener('click', () => act('PUT', '/v1/driver/position', typedPosition()));
$('#available').addEventListener('change', (event) => act('PUT', '/v1/driver/availability', { available: event.target.checked }));
$('#accept').addEventListener('click', () => act('POST', `/v1/driver/offers/${state.me.offer.ride}/accept`));
$('#decline').addEventListener('click', () => act('POST', `/v1/driver/offers/${state.me.offer.ride}/decline`));
$('#drive-to-pickup').addEventListener('click', () => act('PUT', '/v1/driver/position', state.me.pickup));
$('#pickup').addEventListener('click', () => act('POST', `/v1/driver/rides/${state.me.ride}/pickup`));
$('#dropoff').addEventListener('click', () => act('POST', `/v1/driver/rides/${state.me.ride}/dropoff`, state.me.destination));

setUpSignIn(session, { onReady: () => start().catch((e) => { $('#status').textContent = e.message; }),
  onSignedOut: () => { state.stream?.close(); clearInterval(state.ticker); } });
