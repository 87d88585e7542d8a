import { Role } from '@app/contracts';
import { defineCollection } from '@app/store';

/** Members whose site role is not plain member (auth owns roles; copied from its events). */
export interface SiteRoleDoc {
  _id: string;
  role: Role;
}

export const siteRolesCollection = defineCollection<SiteRoleDoc>('site_roles', [{ fields: { role: 1 } }]);
