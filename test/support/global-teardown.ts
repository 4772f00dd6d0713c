/** Nothing to tear down globally: every test app drops its own database, folder and Redis keys. */
export default async function globalTeardown(): Promise<void> {}
