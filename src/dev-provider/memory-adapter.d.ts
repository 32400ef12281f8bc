// The type of oidc-provider's built-in in-memory adapter factory, which @types/oidc-provider leaves out.
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  export function createMemoryAdapter(clockTolerance?: number): import('oidc-provider').AdapterFactory;
}
