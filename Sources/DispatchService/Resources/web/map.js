// The city map in SVG, drawn from GET /v1/city: the city's area, its square zones with ids,
// and layers of markers (taxis, customers, pickup and drop-off points). Coordinates are metres
// from the south-west corner, north up.

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** Loads the city (no login needed). */
export async function loadCity() {
  const response = await fetch('/v1/city', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`the map could not be loaded (HTTP ${response.status})`);
  return response.json();
}

export class CityMap {
  /**
   * @param container element the map goes in
   * @param city the body of GET /v1/city
   * @param label accessible name of the map
   * @param onPick optional (point) => void for clicks on the map
   */
  constructor(container, city, { label, onPick } = {}) {
    this.city = city;
    const pad = Math.max(city.width, city.height) * 0.02;
    this.root = svg('svg', {
      viewBox: `${-pad} ${-pad} ${city.width + 2 * pad} ${city.height + 2 * pad}`,
      role: 'img', 'aria-label': label || 'City map', class: 'city-map',
      preserveAspectRatio: 'xMidYMid meet',
    });
    this.scale = Math.max(city.width, city.height) / 100;  // one hundredth of the city: marker unit
    const zones = svg('g', { class: 'zones' });
    this.zoneShapes = city.zones.map((zone) => {
      // The zone's own outline (squares or hexagons), y flipped: SVG's y grows downwards.
      const rect = svg('polygon', {
        points: zone.outline.map(([x, y]) => `${x},${city.height - y}`).join(' '),
        class: 'zone', 'data-zone': zone.id,
      });
      const text = svg('text', {
        x: zone.min_x + this.scale, y: city.height - zone.max_y + 3 * this.scale, class: 'zone-label',
        'font-size': 2.6 * this.scale,
      });
      text.textContent = `${zone.id}`;
      zones.append(rect, text);
      return { rect, text, zone };
    });
    this.root.append(zones);
    this.layers = {};
    for (const name of ['customers', 'points', 'taxis']) {
      this.layers[name] = svg('g', { class: `layer-${name}` });
      this.root.append(this.layers[name]);
    }
    if (onPick) {
      this.root.classList.add('pickable');
      this.root.addEventListener('click', (event) => onPick(this.toCity(event)));
    }
    container.replaceChildren(this.root);
  }

  /** The city point under a mouse event, rounded to metres and clamped inside the city. */
  toCity(event) {
    const point = this.root.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    const local = point.matrixTransform(this.root.getScreenCTM().inverse());
    const clamp = (v, max) => Math.min(max, Math.max(0, Math.round(v)));
    return { x: clamp(local.x, this.city.width), y: clamp(this.city.height - local.y, this.city.height) };
  }

  /** Shows each zone's queue length in its label and tints zones with a queue. */
  setQueues(lengths) {
    this.zoneShapes.forEach(({ rect, text, zone }) => {
      const n = lengths[zone.id] || 0;
      text.textContent = n ? `${zone.id} · ${n} queued` : `${zone.id}`;
      rect.classList.toggle('has-queue', n > 0);
    });
  }

  /** Replaces a layer's markers: items are {x, y, kind, label, id}. */
  setMarkers(layer, items) {
    const group = this.layers[layer];
    const s = this.scale;
    group.replaceChildren(...items.map((item) => {
      const g = svg('g', {
        class: `marker ${layer} ${item.kind || ''}`, transform: `translate(${item.x} ${this.city.height - item.y})`,
        'data-id': item.id ?? '', 'data-kind': item.kind || '',
      });
      let shape;
      if (layer === 'taxis') shape = svg('rect', { x: -1.4 * s, y: -1.4 * s, width: 2.8 * s, height: 2.8 * s, rx: 0.5 * s });
      else if (layer === 'customers') shape = svg('circle', { r: 1.3 * s });
      else shape = svg('path', { d: `M0 0 L${-1.4 * s} ${-3 * s} A${1.5 * s} ${1.5 * s} 0 1 1 ${1.4 * s} ${-3 * s} Z` });
      const title = svg('title');
      title.textContent = item.label || '';
      g.append(shape, title);
      if (item.text) {
        const text = svg('text', { y: -3.6 * s, 'text-anchor': 'middle', 'font-size': 2.6 * s, class: 'marker-text' });
        text.textContent = item.text;
        g.append(text);
      }
      return g;
    }));
  }
}
