// Reference server: the weather tools on the official TypeScript SDK's McpServer (stdio).
// The benchmark copies this file next to its node_modules (benchmarks/.work/node) to run it.
import { createHash } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const SUMMARIES = ["Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Windy", "Clear"];
const SEVERITIES = ["minor", "moderate", "severe", "extreme"];
const ALERTS = {
  CA: [["moderate", "Wind advisory for the coastal hills until 18:00."]],
  TX: [
    ["severe", "Severe thunderstorm warning for Travis County until 21:00."],
    ["minor", "Heat advisory in effect through Friday."],
  ],
  FL: [["extreme", "Hurricane warning for the Keys."]],
};

const seed = (city, day) =>
  createHash("sha256").update(`${city.trim().toLowerCase()}/${day}`).digest().readUInt32BE(0);
const round1 = (x) => Math.round(x * 10) / 10;
const toUnits = (c, units) => (units === "imperial" ? round1((c * 9) / 5 + 32) : round1(c));

const server = new McpServer(
  { name: "weather", version: "0.1.0" },
  {
    instructions:
      "Use get_forecast for a city's forecast over the next days and get_alerts for active " +
      "weather alerts in a US state. Temperatures follow the requested units.",
  },
);

server.registerTool(
  "get_forecast",
  {
    title: "Get forecast",
    description: "Daily forecast for a city, for up to 7 days.",
    inputSchema: {
      city: z.string().min(1).max(100).describe("City name, e.g. Paris"),
      days: z.number().int().min(1).max(7).default(3).describe("Number of days"),
      units: z.enum(["metric", "imperial"]).default("metric"),
    },
    outputSchema: {
      city: z.string(),
      units: z.enum(["metric", "imperial"]),
      days: z.array(
        z.object({
          day: z.number().int().min(1),
          summary: z.string(),
          high: z.number(),
          low: z.number(),
          precipitation_chance: z.number().int().min(0).max(100),
        }),
      ),
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  },
  async ({ city, days, units }) => {
    const out = [];
    for (let day = 1; day <= days; day++) {
      const s = seed(city, day);
      const lowC = 2 + (s % 15);
      out.push({
        day,
        summary: SUMMARIES[s % SUMMARIES.length],
        high: toUnits(lowC + 4 + (s % 9), units),
        low: toUnits(lowC, units),
        precipitation_chance: s % 101,
      });
    }
    const data = { city, units, days: out };
    return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  },
);

server.registerTool(
  "get_alerts",
  {
    title: "Get alerts",
    description: "Active weather alerts for a US state, as text.",
    inputSchema: {
      state: z.string().regex(/^[A-Z]{2}$/).describe("Two-letter US state code, e.g. CA"),
      min_severity: z.enum(["minor", "moderate", "severe", "extreme"]).default("minor"),
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async ({ state, min_severity }) => {
    const threshold = SEVERITIES.indexOf(min_severity);
    const alerts = (ALERTS[state] || [])
      .filter(([severity]) => SEVERITIES.indexOf(severity) >= threshold)
      .map(([severity, text]) => `[${severity}] ${text}`);
    const text = alerts.length ? alerts.join("\n") : `No active alerts for ${state}.`;
    return { content: [{ type: "text", text }] };
  },
);

await server.connect(new StdioServerTransport());
