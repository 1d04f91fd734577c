import dgram from 'node:dgram';
import net from 'node:net';

/** A game "server" on 127.0.0.1 that answers with data without end, counting what it managed to send. */
export type Hostile = { port: number; sent: () => number; connections: () => number; close: () => Promise<void> };

/**
 * TCP: every connection gets a Minecraft status packet that announces 2 GB (so a reader waits for the
 * rest), then an endless stream of bytes as fast as the reader takes them, until it is closed.
 */
export async function startEndlessTcp(): Promise<Hostile> {
  let sent = 0;
  let connections = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    const pump = () => {
      while (!socket.destroyed && socket.writable) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.once('data', () => {
      // VarInt 2^31 - 1: the packet's length.
      socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x07]));
      sent += 5;
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sent: () => sent,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * UDP: every request is answered by a flood of Source-engine split packets, each of a new split id,
 * so a reader that keeps them waits for parts that never come (and keeps every one) until stopped.
 */
export async function startEndlessUdp(): Promise<Hostile> {
  let sent = 0;
  let connections = 0;
  let stopped = false;
  const socket = dgram.createSocket('udp4');
  socket.on('error', () => {});
  let uid = 1;
  socket.on('message', (_request, peer) => {
    connections++;
    const flood = () => {
      if (stopped) return;
      for (let i = 0; i < 50; i++) {
        const packet = Buffer.alloc(1200, 0x42);
        packet.writeInt32LE(-2, 0);
        packet.writeUInt32LE(uid++ & 0x7fffffff, 4);
        packet[8] = 2; // two parts
        packet[9] = 0; // this is the first
        sent += packet.length;
        socket.send(packet, peer.port, peer.address);
      }
      setImmediate(flood);
    };
    flood();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    sent: () => sent,
    connections: () => connections,
    close: async () => {
      stopped = true;
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
