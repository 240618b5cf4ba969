import { PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/ui/PageHeading';
import { errorMessages } from '../../../lib/errors';
import { useReportSummary } from '../api/get-report';
import { SummaryView } from './SummaryView';

/**
 * /printreport/{scanId}: the print summary. `?print=1` hides the site's frame (print layout),
 * opens every sample list and opens the print dialog once the report is on screen.
 */
export default function PrintReportPage() {
  const { t } = useTranslation();
  const { scanId = '' } = useParams();
  const [params] = useSearchParams();
  const printMode = params.get('print') === '1';
  const summary = useReportSummary(scanId);
  const loaded = summary.isSuccess;

  useEffect(() => {
    if (!printMode) return;
    document.body.classList.add('print-layout');
    return () => document.body.classList.remove('print-layout');
  }, [printMode]);

  useEffect(() => {
    if (!printMode || !loaded) return;
    // Charts draw on the next frame; print once they are there.
    const timer = setTimeout(() => window.print(), 500);
    return () => clearTimeout(timer);
  }, [printMode, loaded]);

  if (summary.isPending) return <Spin size="large" className="page-spin" />;
  if (summary.isError) {
    return (
      <div className="report-page">
        <PageHeading title={t('report.printTitle')} />
        <Alert type="error" showIcon title={errorMessages(summary.error).join('\n')} />
      </div>
    );
  }
  return (
    <div className="print-report">
      <PageHeading title={t('report.printTitle')} lead={summary.data.url} />
      {!printMode && (
        <Button icon={<PrinterOutlined />} className="no-print" onClick={() => window.print()}>
          {t('report.toolbar.print')}
        </Button>
      )}
      <SummaryView
        summary={summary.data}
        expanded={summary.data.brokenSamples.map((sample) => sample.failureReason)}
      />
    </div>
  );
}
