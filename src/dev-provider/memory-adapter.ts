// In-memory storage for oidc-provider's artefacts, one store per provider, expiring entries lazily.
// (oidc-provider's built-in one works too but warns loudly at start; this one is for a dev-only server by design.)

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

interface Entry {
  payload: Payload;
  expiresAt: number;
}

class Store {
  readonly entries = new Map<string, Entry>();
  readonly index = new Map<string, string>();
  readonly grants = new Map<string, Set<string>>();
  writes = 0;

  get(key: string): Payload | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry?.payload;
  }

  // Expired entries are dropped when read; a periodic sweep keeps never-read ones from piling up.
  sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const [grantId, members] of this.grants) {
      for (const key of members) if (!this.entries.has(key)) members.delete(key);
      if (members.size === 0) this.grants.delete(grantId);
    }
    for (const [name, id] of this.index) {
      const model = name.startsWith('sessionUid:') ? 'Session' : 'DeviceCode';
      if (!this.entries.has(`${model}:${id}`)) this.index.delete(name);
    }
  }
}

export function createMemoryAdapter() {
  const store = new Store();
  return class MemoryAdapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    key(id: string): string {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const key = this.key(id);
      store.writes += 1;
      if (store.writes % 500 === 0) store.sweep();
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
      store.entries.set(key, { payload, expiresAt });
      if (this.model === 'Session' && payload.uid) store.index.set(`sessionUid:${payload.uid}`, id);
      if (payload.userCode) store.index.set(`userCode:${payload.userCode}`, id);
      // Remember which tokens a grant produced so revoking the grant revokes them all.
      if (payload.grantId) {
        const members = store.grants.get(payload.grantId) ?? new Set<string>();
        members.add(key);
        store.grants.set(payload.grantId, members);
      }
    }

    async find(id: string): Promise<Payload | undefined> {
      return store.get(this.key(id));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const id = store.index.get(`sessionUid:${uid}`);
      return id === undefined ? undefined : this.find(id);
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const id = store.index.get(`userCode:${userCode}`);
      return id === undefined ? undefined : this.find(id);
    }

    async consume(id: string): Promise<void> {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.entries.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of store.grants.get(grantId) ?? []) store.entries.delete(key);
      store.grants.delete(grantId);
    }
  };
}
