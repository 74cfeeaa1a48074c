/**
 * The parts of the MCP SDK that `rentctl mcp` uses, in one module: the build
 * bundles it into its own file (dist/mcp-sdk.cjs), loaded only by `rentctl
 * mcp` (the SDK as ~200 separate modules took ~250 ms to load; one file ~100).
 */
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
