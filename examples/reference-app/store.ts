/**
 * The reference app's own storage: one JSON file. Per business: the installation's token and
 * webhook secret, and what the app learned from webhooks. business.data_erasure deletes a
 * business's entry entirely.
 */
import fs from "node:fs";
import path from "node:path";

export type Installation = {
  businessId: string;
  installationId: string;
  accessToken: string;
  webhookSecret: string;
  scopes: string[];
  installedAt: string;
};
export type ReceivedEvent = { id: string; event: string; receivedAt: string; data: unknown };
type Data = {
  businesses: Record<string, { installation: Installation | null; events: ReceivedEvent[] }>;
  seenDeliveries: string[];
};

export class Store {
  private data: Data = { businesses: {}, seenDeliveries: [] };
  constructor(private file: string | null) {
    if (file && fs.existsSync(file)) this.data = JSON.parse(fs.readFileSync(file, "utf8"));
  }
  private save() {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, JSON.stringify(this.data, null, 2), { mode: 0o600 });
  }
  saveInstallation(i: Installation) {
    this.data.businesses[i.businessId] = { installation: i, events: this.data.businesses[i.businessId]?.events ?? [] };
    this.save();
  }
  installation(businessId: string): Installation | null {
    return this.data.businesses[businessId]?.installation ?? null;
  }
  /** false when the delivery was seen before (deduplication by X-Service-Event-Id). */
  recordEvent(businessId: string, e: ReceivedEvent): boolean {
    if (this.data.seenDeliveries.includes(e.id)) return false;
    this.data.seenDeliveries.push(e.id);
    this.data.seenDeliveries = this.data.seenDeliveries.slice(-5000);
    (this.data.businesses[businessId] ??= { installation: null, events: [] }).events.push(e);
    this.save();
    return true;
  }
  events(businessId: string): ReceivedEvent[] {
    return this.data.businesses[businessId]?.events ?? [];
  }
  /** business.data_erasure: everything the app stored about the merchant goes. */
  erase(businessId: string) {
    delete this.data.businesses[businessId];
    this.save();
  }
  businesses(): string[] {
    return Object.keys(this.data.businesses);
  }
}
