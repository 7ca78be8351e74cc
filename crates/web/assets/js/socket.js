// A WebSocket that comes back by itself. The server sends the full game
// state (`full`) on every (re)connection, so resuming is just connecting
// again; the page re-sends an unacknowledged move with its ply number,
// which the server ignores when it already has it.

const PING_MS = 20000;

export class Socket {
  /**
   * @param {string} path  e.g. /api/games/abc/ws
   * @param {{onMessage: function(object), onStatus?: function(string)}} handlers
   */
  constructor(path, { onMessage, onStatus = () => {} }) {
    this.url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.stopped = false;
    this.delay = 500;
    this.timer = null;
    this.ping = null;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    this.onStatus('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus('open');
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ t: 'ping' }), PING_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return; // not ours
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.ping);
      if (this.ws !== ws || this.stopped) return;
      this.onStatus('closed');
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a message; false when not connected (the caller may retry). */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Closes for good (no reconnect). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const ws = this.ws;
    if (!ws) return;
    if (ws.readyState === WebSocket.CONNECTING) {
      // Closing a socket that is still connecting makes the browser log
      // an error; let it open, then close it.
      ws.onopen = () => ws.close();
      ws.onmessage = null;
    } else {
      ws.close();
    }
  }
}
