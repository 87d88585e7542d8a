import type { StackImporter } from './stack-importer';

/** Where the seed sends a request: the base URL of the service that owns `/api<path>`. */
export type SeedRoute = (path: string, method: string) => string;

/**
 * A thin client of the services' own routes, for what the seed does as members would (profiles,
 * likes, squads, chats). It goes to the owning service inside the stack, never through the
 * public port: the gateway's rate limits and members' traffic are not its business (issue 46
 * case 2).
 */
export class SeedClient {
  constructor(private readonly route: SeedRoute) {}

  async request<T = unknown>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.route(path, method)}/api${path}`, {
      method,
      headers: {
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        ...(token && { Authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { success?: boolean; data?: T; message?: string };
    if (!res.ok || json.success === false) {
      throw new Error(`Seeding ${method} ${path} failed: ${res.status} ${json.message ?? ''}`);
    }
    return json.data as T;
  }

  /** Multipart upload of one file (POST /api/media). */
  async upload(token: string, file: Buffer, filename: string, mime: string): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: mime }), filename);
    const res = await fetch(`${this.route('/media', 'POST')}/api/media`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const json = (await res.json()) as { data: { id: string; url: string }; message?: string };
    if (!res.ok) throw new Error(`Seeding upload failed: ${res.status} ${json.message ?? ''}`);
    return json.data;
  }
}

export interface SeededUser {
  id: string;
  username: string;
  email: string;
  name: string;
  password: string;
  token: string;
}

/** What earlier seed steps made, for the later ones. */
export interface SeedContext {
  client: SeedClient;
  /** The services' bulk imports: members, follows and reviews go in through them. */
  importer: StackImporter;
  users: SeededUser[];
  /** Ids made by earlier steps, by name (e.g. 'products', 'reviews', 'squads'). */
  made: Record<string, string[]>;
  /** Waits until the events of earlier writes have been handled by every service. */
  settle(): Promise<void>;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;
