/**
 * The direct path between the window and the core (Electron): main hands each window one end of a
 * MessageChannelMain pair and the core's process the other (remoteCore.connectWindow), so calls and
 * events go straight between the renderer and the core and never wait on main's event loop.
 *
 * Trust stays where it was: main checks the frame before it hands over a port — the top-level frame
 * of one of our windows, at our origin — and the core takes every call on that port as that
 * sender's, whatever the call says. A reload asks again (a new port replaces the old one); a
 * navigation away is refused by security.ts and its document never gets a port.
 */
import { type IpcMainEvent, MessageChannelMain, type WebContents } from 'electron';
import type { RemoteCore } from '../../core/host/remoteCore';
import type { SenderInfo } from '../../core/ipc/dispatcher';
import type { EventEntry } from '../../shared/ipc/channel';
import { CORE_STOPPED_CHANNEL, EVENTS_CHANNEL, PORT_CHANNEL } from './channels';

export interface WindowPorts {
  /** The preload asks for its port (CONNECT_CHANNEL), on every load of the document. */
  onConnect(event: IpcMainEvent): void;
  /** A core (re)started: every window that asked gets a port to it. */
  coreStarted(): void;
  /** The core's process stopped: windows stop waiting for answers on their old ports. */
  coreStopped(): void;
  /** Events main emits itself (the supervisor's notices), to every connected window. */
  send(events: readonly EventEntry[]): void;
}

export const createWindowPorts = (options: {
  readonly core: () => RemoteCore | undefined;
  readonly isTrustedSender: (sender: SenderInfo) => boolean;
  readonly log?: (line: string) => void;
}): WindowPorts => {
  /** Windows whose document asked for a port, by web contents id. */
  const asked = new Map<number, WebContents>();

  const connect = (contents: WebContents): void => {
    const frame = contents.mainFrame;
    const sender: SenderInfo = { url: frame.url, isMainFrame: true };
    if (!options.isTrustedSender(sender)) {
      options.log?.(`no core port for ${frame.url}: not our document`);
      return;
    }
    const core = options.core();
    if (core === undefined) return; // coreStarted() connects it
    const { port1, port2 } = new MessageChannelMain();
    if (!core.connectWindow(contents.id, sender, port2)) {
      port1.close();
      port2.close();
      return;
    }
    frame.postMessage(PORT_CHANNEL, null, [port1]);
  };

  return {
    onConnect: (event) => {
      // Only the top-level frame of a window asks; a subframe gets nothing.
      const frame = event.senderFrame;
      if (frame === null || frame !== event.sender.mainFrame) return;
      const contents = event.sender;
      if (!asked.has(contents.id)) contents.once('destroyed', () => asked.delete(contents.id));
      asked.set(contents.id, contents);
      connect(contents);
    },
    coreStarted: () => {
      for (const contents of asked.values()) connect(contents);
    },
    coreStopped: () => {
      for (const contents of asked.values()) contents.send(CORE_STOPPED_CHANNEL);
    },
    send: (events) => {
      for (const contents of asked.values()) contents.send(EVENTS_CHANNEL, events);
    },
  };
};
