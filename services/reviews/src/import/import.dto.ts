import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CreateProductDto, CreateReviewDto } from '@app/contracts';

/** A product of a bulk import: the create route's body and the member who adds it. */
export class ImportProductDto extends CreateProductDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  user_id: string;
}

/** A review of a bulk import: the create route's body and its author. */
export class ImportReviewDto extends CreateReviewDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  user_id: string;
}
