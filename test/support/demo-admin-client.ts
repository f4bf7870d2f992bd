/**
 * A node-side client of the demo's admin for unit tests: one demo app (createDemoApp) on a free
 * port, real HTTP, and editors that sign in through the real sign-in form (the anonymous CSRF
 * token from the form, the `capell_admin` cookie from the answer) and call the admin API with the
 * admin CSRF token the dashboard's `<meta name="csrf-token">` carries, with the bodies Capell's
 * admin bridge sends (`{ tool, payload }`, the approval `{ tool, confirmation_token }`).
 */
import { createServer, type Server } from 'node:http';
import { createDemoApp } from '../../demo/server/app.js';
import { listen } from '../../demo/server/listen.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

export interface AdminDemo {
  url: string;
  app: ReturnType<typeof createDemoApp>;
  /** GET (or other method) with the given headers; never follows redirects. */
  fetch(path: string, init?: RequestInit): Promise<Answer>;
  /** Signs in through the form; throws when it does not answer 303 with a cookie. */
  signIn(actor: string, password?: string): Promise<Editor>;
  close(): Promise<void>;
}

export interface Editor {
  actor: string;
  /** `capell_admin=<id>` */
  cookie: string;
  /** The admin session id (the cookie's value). */
  sessionId: string;
  /** The admin CSRF token of the session, read from the dashboard's meta tag. */
  csrf: string;
  get(path: string): Promise<Answer>;
  /** POST JSON below /admin/agent/v1 with the session's cookie, CSRF header and this origin. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** POST /admin/agent/v1/tools/invoke `{ tool, payload }`. */
  invoke(tool: string, payload: unknown): Promise<Answer>;
  /** POST /admin/agent/v1/tools/invoke `{ tool, confirmation_token }` (the editor's approval). */
  approve(tool: string, token: unknown): Promise<Answer>;
}

async function toAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Starts one demo app on a free port.
 * @param options passed to createDemoApp (e.g. `adminConfirmationTtlMs`)
 */
export async function startAdminDemo(options: Parameters<typeof createDemoApp>[0] = {}): Promise<AdminDemo> {
  const app = createDemoApp(options);
  const server: Server = createServer((req, res) => {
    void app.handle(req, res);
  });
  const url = await listen(server, '127.0.0.1', 0);
  const get = async (path: string, init: RequestInit = {}) => toAnswer(await fetch(`${url}${path}`, { redirect: 'manual', ...init }));

  async function signIn(actor: string, password = `demo-${actor}`): Promise<Editor> {
    const form = await get('/admin/sign-in');
    const anonymous = form.headers.get('set-cookie')?.split(';')[0] ?? '';
    const token = /name="_token" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const answer = await get('/admin/sign-in', {
      method: 'POST',
      headers: { Origin: url, Cookie: anonymous, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _token: token, actor, password }).toString(),
    });
    const cookie = answer.headers.get('set-cookie')?.split(';')[0] ?? '';
    if (answer.status !== 303 || !cookie.startsWith('capell_admin=')) throw new Error(`sign-in of ${actor} answered ${answer.status}`);
    const dashboard = await get('/admin/', { headers: { Cookie: cookie } });
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(dashboard.text)?.[1] ?? '';
    const editorGet = (path: string) => get(path, { headers: { Cookie: cookie } });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => get(`/admin/agent/v1${path}`, {
      method: 'POST',
      headers: { Origin: url, Cookie: cookie, 'X-CSRF-TOKEN': csrf, 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      actor,
      cookie,
      sessionId: cookie.slice('capell_admin='.length),
      csrf,
      get: editorGet,
      post,
      invoke: (tool, payload) => post('/tools/invoke', { tool, payload }),
      approve: (tool, token) => post('/tools/invoke', { tool, confirmation_token: token }),
    };
  }

  return {
    url,
    app,
    fetch: get,
    signIn,
    close: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    }),
  };
}

/**
 * Invoke a write, then approve it with the token Capell's answer carries.
 * @returns the first answer (`confirmation_required`) and the approval's
 */
export async function invokeAndApprove(editor: Editor, tool: string, payload: Record<string, unknown>): Promise<{ preview: Answer; approval: Answer }> {
  const preview = await editor.invoke(tool, payload);
  if (preview.status !== 200 || preview.json?.mode !== 'confirmation_required') throw new Error(`invoke ${tool} answered ${preview.status}: ${preview.text}`);
  const approval = await editor.approve(tool, preview.json.confirmationToken);
  return { preview, approval };
}
