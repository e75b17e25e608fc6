import { createHash, timingSafeEqual } from "node:crypto";
import type { Directory, DirectoryUser, Organization, PartnerRegistration } from "../app/directory.js";

/** A user of a fixed list, with the password it logs in with. */
export interface StaticUser extends DirectoryUser {
  password: string;
}

export interface StaticDirectoryData {
  organizations: readonly Organization[];
  users: readonly StaticUser[];
  partners: readonly PartnerRegistration[];
}

/** A directory over fixed lists (demo data, tests, a small config-file deployment). */
export class StaticDirectory implements Directory {
  private readonly usersByName: Map<string, StaticUser>;

  constructor(private readonly data: StaticDirectoryData) {
    this.usersByName = new Map(data.users.map((u) => [u.username.toLowerCase(), u]));
  }

  async verifyPassword(username: string, password: string): Promise<DirectoryUser | undefined> {
    const user = this.usersByName.get(username.toLowerCase());
    // Digest both sides so the comparison is constant-time whatever the lengths.
    const matches = timingSafeEqual(digest(password), digest(user?.password ?? ""));
    return user && matches ? withoutPassword(user) : undefined;
  }

  async findUser(userId: string): Promise<DirectoryUser | undefined> {
    const user = this.data.users.find((u) => u.id === userId);
    return user && withoutPassword(user);
  }

  async organizations(): Promise<Organization[]> {
    return [...this.data.organizations];
  }

  async findOrganization(airlineUrn: string): Promise<Organization | undefined> {
    return this.data.organizations.find((o) => o.airlineUrn === airlineUrn);
  }

  async partnerRegistrations(): Promise<PartnerRegistration[]> {
    return [...this.data.partners];
  }

  async findPartnerRegistration(clientId: string): Promise<PartnerRegistration | undefined> {
    return this.data.partners.find((p) => p.clientId === clientId);
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

function withoutPassword({ password: _password, ...user }: StaticUser): DirectoryUser {
  return user;
}
