/**
 * `@understudy/agents/testing`: the drop-in for `@openai/agents/testing` (scripted model and
 * sandbox doubles). The doubles are not built yet; this entry exists so the package's export
 * map is final, and exports nothing until they land.
 */
export {};
