import { z } from "zod";
import { ChannelSchema, type Channel } from "@/lib/contracts/people";
import { CONSUMER_KINDS, type ConsumerKind } from "@/lib/domain/recipients";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface TeamRecord {
  name: string;
  people: string[];
  channel: Channel | null;
}

export interface ConsumerRecord extends TeamRecord {
  /** The declared id; its lineage node is `nodeId` (`consumer:<key>`). */
  key: string;
  nodeId: string;
  kind: ConsumerKind;
  /** Node ids it reads (datasets or tasks). */
  reads: string[];
}

const StringsSchema = z.array(z.string());
const strings = (json: string): string[] => StringsSchema.parse(JSON.parse(json));
const channelOf = (json: string | null): Channel | null => (json === null ? null : ChannelSchema.parse(JSON.parse(json)));
const kindOf = (kind: string): ConsumerKind => ((CONSUMER_KINDS as readonly string[]).includes(kind) ? (kind as ConsumerKind) : "other");

/** The consumer's lineage node id. */
export const consumerNodeId = (key: string) => `consumer:${key}`;

export async function listTeams(db: Db | Tx): Promise<TeamRecord[]> {
  const rows = await prismaOf(db).team.findMany({ orderBy: { name: "asc" } });
  return rows.map((r) => ({ name: r.name, people: strings(r.people), channel: channelOf(r.channel) }));
}

export async function listConsumers(db: Db | Tx): Promise<ConsumerRecord[]> {
  const rows = await prismaOf(db).consumer.findMany({ orderBy: { key: "asc" } });
  return rows.map((r) => ({
    key: r.key,
    nodeId: r.nodeId,
    name: r.name,
    kind: kindOf(r.kind),
    reads: strings(r.reads),
    people: strings(r.people),
    channel: channelOf(r.channel),
  }));
}

/**
 * A cheap fingerprint of the declared consumers (how many, and the last change): the lineage
 * view that draws them is kept until it changes. "0:0" when none is declared.
 */
export async function consumersFingerprint(db: Db): Promise<string> {
  const a = await prismaOf(db).consumer.aggregate({ _count: { _all: true }, _max: { updatedAt: true } });
  return `${a._count._all}:${a._max.updatedAt?.getTime() ?? 0}`;
}

/** Creates or replaces a team by its name. */
export async function saveTeam(tx: Tx, team: TeamRecord): Promise<void> {
  const data = { people: JSON.stringify(team.people), channel: team.channel ? JSON.stringify(team.channel) : null };
  await prismaOf(tx).team.upsert({ where: { name: team.name }, create: { name: team.name, ...data }, update: data });
}

/** Creates or replaces a consumer by its key. */
export async function saveConsumer(tx: Tx, c: ConsumerRecord): Promise<void> {
  const data = {
    nodeId: c.nodeId,
    name: c.name,
    kind: c.kind,
    reads: JSON.stringify(c.reads),
    people: JSON.stringify(c.people),
    channel: c.channel ? JSON.stringify(c.channel) : null,
  };
  await prismaOf(tx).consumer.upsert({ where: { key: c.key }, create: { key: c.key, ...data }, update: data });
}
