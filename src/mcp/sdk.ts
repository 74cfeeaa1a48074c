/**
 * The parts of the MCP SDK that `rentctl mcp` uses, in one module: the build
 * bundles it into its own file (dist/mcp-sdk.cjs), loaded only by `rentctl
 * mcp` (the SDK as ~200 separate modules took ~250 ms to load; one file ~100).
 * zod (the schema library the SDK validates tool input and output with) comes
 * through here too, so it stays out of every other command's bundle.
 */
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export * as z from "zod/v4";
