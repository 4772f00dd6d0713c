// Replaced when the e2e harness lands; kept valid so `jest --selectProjects unit` resolves the config.
export default async function globalSetup(): Promise<void> {}
