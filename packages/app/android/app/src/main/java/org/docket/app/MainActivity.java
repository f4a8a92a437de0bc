package org.docket.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
