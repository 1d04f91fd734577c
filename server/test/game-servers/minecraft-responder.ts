import net from 'node:net';

/**
 * A minimal Minecraft: Java Edition server for the Server List Ping (https://wiki.vg/Server_List_Ping):
 * length-prefixed packets with VarInts; handshake (0x00, next state 1), status request (0x00) answered
 * with the status JSON, ping (0x01) echoed as pong. It counts the connections made to it.
 */
export type MinecraftStatus = {
  version: { name: string; protocol: number };
  players: { max: number; online: number; sample?: { name: string; id: string }[] };
  description: string | { text: string; extra?: unknown[] };
};

export type MinecraftResponder = { port: number; connections: () => number; setStatus: (s: MinecraftStatus) => void; close: () => Promise<void> };

export function varInt(value: number): Buffer {
  const bytes: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0);
  return Buffer.from(bytes);
}

/** Reads a VarInt at offset: [value, bytes used], or null when the buffer ends first. */
export function readVarInt(buffer: Buffer, offset: number): [number, number] | null {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buffer[offset + i];
    if (byte === undefined) return null;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value >>> 0, i + 1];
  }
  throw new Error('VarInt too long');
}

const packet = (id: number, body: Buffer) => {
  const payload = Buffer.concat([varInt(id), body]);
  return Buffer.concat([varInt(payload.length), payload]);
};

/** A status shaped like a real Paper server's: chat-component description with colours, a player sample. */
export const paperStatus = (names: string[], max = 20): MinecraftStatus => ({
  version: { name: 'Paper 1.21.1', protocol: 767 },
  players: { max, online: names.length, sample: names.map((name, i) => ({ name, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })) },
  description: { text: '', extra: [{ text: 'Family ', color: 'gold' }, { text: '§aSurvival' }] },
});

export async function startMinecraftResponder(initial: MinecraftStatus): Promise<MinecraftResponder> {
  let status = initial;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    let state: 'handshake' | 'status' = 'handshake';
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const length = readVarInt(buffer, 0);
        if (!length || buffer.length < length[1] + length[0]) return;
        const body = buffer.subarray(length[1], length[1] + length[0]);
        buffer = buffer.subarray(length[1] + length[0]);
        const id = readVarInt(body, 0);
        if (!id) return socket.destroy();
        const rest = body.subarray(id[1]);
        if (state === 'handshake' && id[0] === 0x00) {
          // protocol version, server address (VarInt length + UTF-8), port (u16), next state.
          const protocol = readVarInt(rest, 0);
          const addressLength = protocol && readVarInt(rest, protocol[1]);
          if (!protocol || !addressLength) return socket.destroy();
          const next = readVarInt(rest, protocol[1] + addressLength[1] + addressLength[0] + 2);
          if (next?.[0] !== 1) return socket.destroy();
          state = 'status';
        } else if (state === 'status' && id[0] === 0x00) {
          const json = Buffer.from(JSON.stringify(status), 'utf8');
          socket.write(packet(0x00, Buffer.concat([varInt(json.length), json])));
        } else if (state === 'status' && id[0] === 0x01) {
          socket.end(packet(0x01, rest));
        } else {
          return socket.destroy();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    setStatus: (next) => {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
