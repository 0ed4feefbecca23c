#!/usr/bin/env node
// A Tarot Arena bot in JavaScript, written from proto/tarot_arena/v1/arena.proto alone (no
// generated code, no SDK): the test suite's proof that the documented protocol is enough.
//
//   node bot.js --server HOST:PORT [--token TOKEN] [--max-tables N] [--name NAME] [--seed N]
//               [--tls | --tls-ca FILE] [--tls-cert FILE --tls-key FILE]
//
// The token may come from TAROT_ARENA_TOKEN instead. --tls connects over TLS trusting the
// public roots (Node's bundled ones), --tls-ca FILE trusting the organiser's CA instead;
// --tls-cert/--tls-key show the bot's own certificate to an arena that asks (mutual TLS). Over
// TLS, the only change is the channel's credentials: grpc.credentials.createSsl(ca, key, cert). It plays a random legal action for every
// request (seeded), answers the requests of one MessageBatch with one DecisionBatch, checks
// the sequence numbers of the events, reconnects with backoff when the stream breaks or the
// arena says it is stopping, and exits 0 when the arena says there is no more work for it.
// On exit it prints one JSON line: tables played, requests answered, notices by kind,
// sequence errors.
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO = path.join(__dirname, "..", "..", "proto", "tarot_arena", "v1", "arena.proto");

function parseArgs(argv) {
  const args = { server: "127.0.0.1:50051", token: process.env.TAROT_ARENA_TOKEN || "",
                 maxTables: 1, name: "node-random", seed: 1, connectTimeout: 30, tls: false,
                 tlsCa: null, tlsCert: null, tlsKey: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--tls") {
      args.tls = true;
      i -= 1; // a flag without a value
      continue;
    }
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--server") args.server = value;
    else if (flag === "--tls-ca") args.tlsCa = value;
    else if (flag === "--tls-cert") args.tlsCert = value;
    else if (flag === "--tls-key") args.tlsKey = value;
    else if (flag === "--token") args.token = value;
    else if (flag === "--max-tables") args.maxTables = Number(value);
    else if (flag === "--name") args.name = value;
    else if (flag === "--seed") args.seed = Number(value);
    else if (flag === "--connect-timeout") args.connectTimeout = Number(value);
    else throw new Error(`unknown option ${flag}`);
  }
  if (!args.token) throw new Error("no bot token: pass --token or set TAROT_ARENA_TOKEN");
  if (Boolean(args.tlsCert) !== Boolean(args.tlsKey)) {
    throw new Error("--tls-cert and --tls-key go together");
  }
  return args;
}

// Plaintext, or TLS: the arena's certificate checked against the CA given (else the public
// roots), the bot's own certificate shown if given.
function credentials(args) {
  if (!(args.tls || args.tlsCa || args.tlsCert)) return grpc.credentials.createInsecure();
  const read = (file) => (file ? fs.readFileSync(file) : null);
  return grpc.credentials.createSsl(read(args.tlsCa), read(args.tlsKey), read(args.tlsCert));
}

// A small seeded generator (mulberry32), so that a run can be repeated.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// uint64 fields arrive as decimal strings (longs: String) and go back as they came.
const OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

function main() {
  const args = parseArgs(process.argv.slice(2));
  const definition = protoLoader.loadSync(PROTO, OPTIONS);
  const { tarot_arena: { v1 } } = grpc.loadPackageDefinition(definition);
  const client = new v1.BotService(args.server, credentials(args), {
    "grpc.max_receive_message_length": 16 * 1024 * 1024,
  });
  const random = rng(args.seed);
  const summary = { tables: 0, requests: 0, notices: {}, sequence_errors: 0, streams: 0,
                    goodbye: null };
  const expected = new Map(); // "table/seat" -> the next sequence, as a BigInt
  let welcomed = false;
  let failures = 0;
  const started = Date.now();

  function log(text) {
    process.stderr.write(`node-bot: ${text}\n`);
  }

  // One Action message naming the same choice as a legal one: copy its oneof member only.
  function copyAction(action) {
    const kind = action.kind;
    return { [kind]: kind === "pass" ? {} : action[kind] };
  }

  function decide(request) {
    const legal = request.legal_actions;
    const choice = legal[Math.floor(random() * legal.length)];
    summary.requests += 1;
    return { table_id: request.table_id, request_id: request.request_id,
             action: copyAction(choice) };
  }

  function onEvent(event) {
    const key = `${event.table_id}/${event.seat}`;
    const sequence = BigInt(event.sequence);
    if (expected.get(key) !== sequence) summary.sequence_errors += 1;
    expected.set(key, sequence + 1n);
  }

  function connect() {
    summary.streams += 1;
    const call = client.Connect();
    let goodbye = null;
    call.write({ hello: { token: args.token, bot_name: args.name, bot_version: "1.0",
                          protocol_version: 1, max_tables: args.maxTables, batching: true } });

    call.on("data", (message) => {
      const parts = message.kind === "batch" ? message.batch.messages : [message];
      const decisions = [];
      for (const part of parts) {
        switch (part.kind) {
          case "welcome":
            welcomed = true;
            failures = 0;
            log(`connected as ${part.welcome.bot_id}, ${part.welcome.max_tables} tables`);
            break;
          case "table_start": {
            const start = part.table_start;
            expected.set(`${start.table_id}/${start.seat}`, BigInt(start.next_sequence));
            break;
          }
          case "event":
            onEvent(part.event);
            break;
          case "request":
            decisions.push(decide(part.request));
            break;
          case "notice": {
            const kind = part.notice.kind;
            summary.notices[kind] = (summary.notices[kind] || 0) + 1;
            const seat = part.notice.seat === undefined ? "none" : part.notice.seat;
            log(`notice ${kind} (seat ${seat}): ${part.notice.message}`);
            break;
          }
          case "table_end":
            summary.tables += 1;
            expected.delete(`${part.table_end.table_id}/${part.table_end.seat}`);
            break;
          case "goodbye":
            goodbye = part.goodbye;
            break;
          default:
            log(`unknown message kind ${part.kind}: ignored`);
        }
      }
      if (decisions.length === 1) call.write({ decision: decisions[0] });
      else if (decisions.length > 1) call.write({ decisions: { decisions } });
    });

    call.on("error", () => {}); // the status below says why
    call.on("status", (status) => {
      if (goodbye && goodbye.reason === "NO_MORE_WORK") {
        summary.goodbye = goodbye.message;
        log(`no more work (${goodbye.message}): exiting`);
        process.stdout.write(JSON.stringify(summary) + "\n");
        client.close();
        return;
      }
      if ([grpc.status.UNAUTHENTICATED, grpc.status.FAILED_PRECONDITION,
           grpc.status.INVALID_ARGUMENT].includes(status.code)) {
        log(`refused: ${status.details}`);
        process.exit(3);
      }
      if (!welcomed && (Date.now() - started) / 1000 > args.connectTimeout) {
        log(`cannot reach the arena at ${args.server}`);
        process.exit(1);
      }
      const delay = Math.min(5000, 250 * 2 ** failures) * (1 - 0.5 * random());
      failures += 1;
      const why = goodbye ? `goodbye: ${goodbye.reason}` : `status ${status.code}`;
      log(`stream ended (${why}); reconnecting in ${Math.round(delay)} ms`);
      setTimeout(connect, delay);
    });
  }

  process.on("SIGINT", () => process.exit(130));
  process.on("SIGTERM", () => process.exit(143));
  connect();
}

try {
  main();
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
