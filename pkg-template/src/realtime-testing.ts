/**
 * `@understudy/agents/realtime/testing`: the drop-in for `@openai/agents/realtime/testing`
 * (scripted realtime transport). Not built yet; this entry exports nothing until it lands.
 */
export {};
