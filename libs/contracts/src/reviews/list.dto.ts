import { PartialType } from '@nestjs/mapped-types';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';
import { IsVisibleName } from '../validation/text-rules';
import { ProductView } from './product.dto';

export const LIST_VISIBILITIES = ['public', 'followers', 'private'] as const;
export type ListVisibility = (typeof LIST_VISIBILITIES)[number];

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const VISIBILITY_MESSAGE = `visibility must be one of ${LIST_VISIBILITIES.join(', ')}`;

export class CreateListDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'List name is required' })
  @IsVisibleName('List name')
  @MaxLength(100)
  name: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(500)
  description?: string;

  @IsIn(LIST_VISIBILITIES, { message: VISIBILITY_MESSAGE })
  visibility: ListVisibility;
}

export class UpdateListDto extends PartialType(CreateListDto, { skipNullProperties: false }) {}

export class AddListItemDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  product_id: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(280)
  note?: string;
}

/** GET /lists: a member's lists (default the viewer's own), the ones the viewer may see. */
export class ListsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  userId?: string;

  /** With it, each list says whether it holds this product (`has_product`): the "Add to list" menu's checks. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  productId?: string;
}

export class ListItemsQueryDto extends PageQueryDto {}

export interface ListView {
  id: string;
  owner: UserCard;
  name: string;
  description: string | null;
  visibility: ListVisibility;
  /** The member's ready-made "Want to try" list: never deleted or renamed. */
  is_default: boolean;
  item_count: number;
  created_at: string;
  updated_at: string;
  /** Only when the request named a `productId`: whether this list holds it. */
  has_product?: boolean;
}

export interface ListItemView {
  product: ProductView;
  note: string | null;
  added_at: string;
}

/** GET /lists/:id: the list with one page of its items (the page in `meta`). */
export interface ListDetailView extends ListView {
  items: ListItemView[];
}
