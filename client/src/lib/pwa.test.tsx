import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NewVersionBar } from '../components/NewVersionBar.tsx';
import { checkForNewVersion, NEW_VERSION_TEXT, offlineReadiness, registerServiceWorker, resetPwaForTests, watchRegistration } from './pwa.ts';

/** A service worker of the fake registration: its state changes as the browser's do. */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  readonly postMessage = vi.fn();
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  readonly update = vi.fn(async () => {});
  /** The browser found a new sw.js and installs it. */
  install(): FakeWorker {
    const worker = new FakeWorker();
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    return worker;
  }
  installed(worker: FakeWorker) {
    this.installing = null;
    this.waiting = worker;
    worker.become('installed');
  }
}

class FakeContainer extends EventTarget {
  controller: object | null = null;
  /** Settles when a worker is active: never, unless a test says so. */
  ready: Promise<unknown> = new Promise(() => {});
}

function setUp(controlled = true) {
  const registration = new FakeRegistration();
  const container = new FakeContainer();
  container.controller = controlled ? {} : null;
  watchRegistration(registration as unknown as ServiceWorkerRegistration, container as unknown as ServiceWorkerContainer);
  return { registration, container };
}

afterEach(() => resetPwaForTests());

describe('a new version', () => {
  it('offers "Reload for the new version" once a new worker waits, which takes over and reloads', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const { registration, container } = setUp();
    render(<NewVersionBar />);
    expect(screen.queryByRole('button', { name: NEW_VERSION_TEXT })).toBeNull();

    const worker = registration.install();
    expect(screen.queryByRole('button', { name: NEW_VERSION_TEXT })).toBeNull();
    act(() => registration.installed(worker));
    await userEvent.click(screen.getByRole('button', { name: NEW_VERSION_TEXT }));
    expect(worker.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    expect(reload).not.toHaveBeenCalled();
    // The new worker activates and claims the page: the page reloads into the new version.
    act(() => container.dispatchEvent(new Event('controllerchange')));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('offers a worker already waiting when the page opens', () => {
    const registration = new FakeRegistration();
    registration.waiting = new FakeWorker();
    const container = new FakeContainer();
    container.controller = {};
    watchRegistration(registration as unknown as ServiceWorkerRegistration, container as unknown as ServiceWorkerContainer);
    render(<NewVersionBar />);
    expect(screen.getByRole('button', { name: NEW_VERSION_TEXT })).toBeInTheDocument();
  });

  it("offers nothing for the browser's first worker (no older one controls the page), nor reloads when it claims the page", () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const { registration, container } = setUp(false);
    render(<NewVersionBar />);
    act(() => registration.installed(registration.install()));
    expect(screen.queryByRole('button', { name: NEW_VERSION_TEXT })).toBeNull();
    container.controller = {};
    act(() => container.dispatchEvent(new Event('controllerchange')));
    expect(reload).not.toHaveBeenCalled();
  });

  it('checkForNewVersion asks the browser to fetch sw.js again, and survives a failure', async () => {
    await checkForNewVersion(); // no registration yet: nothing to do
    const { registration } = setUp();
    await checkForNewVersion();
    expect(registration.update).toHaveBeenCalledOnce();
    registration.update.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(checkForNewVersion()).resolves.toBeUndefined();
  });

  it('registers /sw.js once the page has loaded, then looks for a new version when the tab is visible again and every hour', async () => {
    vi.useFakeTimers();
    const registration = new FakeRegistration();
    const register = vi.fn(async () => registration);
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: Object.assign(new FakeContainer(), { register }) });
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    try {
      registerServiceWorker();
      await vi.waitFor(() => expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' }));
      await Promise.resolve();
      document.dispatchEvent(new Event('visibilitychange'));
      expect(registration.update).toHaveBeenCalledOnce();
      vi.advanceTimersByTime(60 * 60 * 1000);
      expect(registration.update).toHaveBeenCalledTimes(2);
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      Reflect.deleteProperty(window, 'isSecureContext');
    }
  });

  it("on a first visit, registers the worker after the load and is 'preparing' until the worker is active (the worker fetches its precache itself)", async () => {
    const registration = new FakeRegistration();
    const worker = new FakeWorker();
    registration.installing = worker;
    let activate = () => {};
    const ready = new Promise((resolve) => (activate = () => resolve(registration)));
    const register = vi.fn(async () => registration);
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: Object.assign(new FakeContainer(), { register, ready }) });
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    try {
      registerServiceWorker();
      expect(offlineReadiness()).toBe('preparing');
      await vi.waitFor(() => expect(register).toHaveBeenCalledOnce());
      expect(offlineReadiness()).toBe('preparing');
      activate();
      await vi.waitFor(() => expect(offlineReadiness()).toBe('ready'));
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      Reflect.deleteProperty(window, 'isSecureContext');
    }
  });

  it("is 'ready' when a worker is already active (a later visit, a reload that bypassed it)", async () => {
    const registration = Object.assign(new FakeRegistration(), { active: new FakeWorker() });
    const register = vi.fn(async () => registration);
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: Object.assign(new FakeContainer(), { register, ready: Promise.resolve(registration) }) });
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    try {
      registerServiceWorker();
      await vi.waitFor(() => expect(register).toHaveBeenCalled());
      await vi.waitFor(() => expect(offlineReadiness()).toBe('ready'));
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      Reflect.deleteProperty(window, 'isSecureContext');
    }
  });
});
