import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'scan',
	'scans',
	'List the scans of the tenant',
);
