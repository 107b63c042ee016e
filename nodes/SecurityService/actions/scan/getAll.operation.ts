import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'scan',
	'List the scans of the tenant',
);
